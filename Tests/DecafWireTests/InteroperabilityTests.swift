import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// Frames made by a second, independent implementation of the brief (tools/reference, Python's
/// standard library) must decode to what that implementation says they hold.
@Suite("Interoperability with an independent encoder", .enabled(if: ExternalTool.python3.isInstalled, Comment(rawValue: ExternalTool.python3.skipReason)))
struct InteroperabilityTests {
    struct Sample: Decodable {
        struct Frame: Decodable {
            var msgType: UInt16
            var sequence: UInt32
            var timestamp: UInt32
            var sessionId: UInt16
            var compressType: UInt8
            var encryptType: UInt8
            var tlv: [Field]
        }

        struct Field: Decodable {
            var tag: UInt16
            var value: String?
            var fields: [Field]?

            var tlvField: TLVField {
                if let fields { return TLVField(tag: TLVTag(tag), content: .fields(fields.map(\.tlvField))) }
                return TLVField(tag: TLVTag(tag), bytes: Hex.bytes(value ?? "") ?? [])
            }
        }

        var hex: String
        var frames: [Frame]
    }

    static func pythonSample() async throws -> Sample {
        let run = try await ChildProcess.run(URL(filePath: "/usr/bin/env"),
                                             ["python3", FixturePaths.root.appending(path: "tools/reference/decaf_frames.py").path, "sample"])
        #expect(run.status == 0)
        let data = Data(run.output)
        return try JSONDecoder().decode(Sample.self, from: data)
    }

    @Test("every frame decodes to the header fields and TLV tree the other encoder put in")
    func pythonFrames() async throws {
        let sample = try await Self.pythonSample()
        var decoder = FrameDecoder()
        decoder.append(try #require(Hex.bytes(sample.hex)))
        var frames: [Frame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        try decoder.finish()
        #expect(frames.count == sample.frames.count)
        for (frame, expected) in zip(frames, sample.frames) {
            #expect(frame.header.messageType.rawValue == expected.msgType)
            #expect(frame.header.sequence.rawValue == expected.sequence)
            #expect(frame.header.timestamp == expected.timestamp)
            #expect(frame.header.sessionID.rawValue == expected.sessionId)
            #expect(frame.header.compressType.rawValue == expected.compressType)
            #expect(frame.header.encryptType.rawValue == expected.encryptType)
            #expect(frame.fields.map(TLVField.init) == expected.tlv.map(\.tlvField))
        }
        #expect(frames.first?.header.sessionID == SessionID(uuid: "12345678-9abc-def0-1234-56789abcdef0"))
    }
}
