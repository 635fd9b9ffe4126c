import DecafCapture
import DecafDissect
import DecafJSON
import DecafTestSupport
import DecafVectors
import DecafWire
import Foundation
import Testing

/// Decaf's own JSON line writer must give exactly the bytes Foundation's JSONEncoder gives with
/// sorted keys and unescaped slashes, for every record the tools print and for awkward values.
@Suite("JSON lines")
struct JSONLineTests {
    static func foundation(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    struct Awkward: Codable {
        enum Mood: String, Codable { case calm, tense }
        var text: String
        var doubles: [Double]
        var byNumber: [Int: String]
        var byName: [String: [UInt64]]
        var missing: Int?
        var flag: Bool
        var mood: Mood
        var nested: [[Int8]]
        var empty: [String: Int]
    }

    @Test("awkward values: control characters, quotes, slashes, Unicode, doubles, number-keyed maps, nils")
    func awkwardValues() throws {
        let control = (0..<32).map { String(UnicodeScalar(UInt8($0))) }.joined()
        let value = Awkward(
            text: control + "\"quoted\" back\\slash /slash é 😀 \u{7F}",
            doubles: [0, -0.0, 0.1, 1.5, 12, 1e15, 1e16, 9_007_199_254_740_992, 2.5e-5, -3.25, 123_456_789.123, .greatestFiniteMagnitude],
            byNumber: [1: "a", 10: "b", 2: "c"],
            byName: ["B": [1], "a": [UInt64.max], "aB": [], "ab": [0]],
            missing: nil, flag: true, mood: .tense, nested: [[], [-128, 127]], empty: [:]
        )
        #expect(JSONLine.encode(value) == (try Self.foundation(value)))
    }

    @Test("a non-finite double is no JSON: the line says so instead of trapping")
    func nonFinite() {
        #expect(JSONLine.encode([Double.nan]).contains("cannot be written as JSON"))
    }

    /// The line `decaf dissect --json` writes for `record`, straight from its bytes.
    static func written(_ record: FrameRecord) -> String {
        var writer = FrameJSONWriter()
        let out = OutputBuffer()
        record.withParts { writer.write($0, to: out) }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test("every frame of every golden vector, as dissect --json writes it")
    func vectorRecords() throws {
        for file in FrameVectorFile.all {
            for group in file.groups {
                for vector in group.tests {
                    for event in StreamCapture.events(of: vector.bytes, options: group.options) {
                        guard case let .frame(frame) = event else { continue }
                        let record = frame.record
                        let json = try record.withParts { try FrameRecordJSON($0) }
                        #expect(Self.written(record) == (try Self.foundation(json)), "tcId \(vector.tcId)")
                        #expect(JSONLine.encode(json) == (try Self.foundation(json)), "tcId \(vector.tcId)")
                    }
                }
            }
        }
    }

    @Test("a frame's text with every character JSON escapes, as dissect --json writes it")
    func escapedText() throws {
        let text = (0..<32).map { String(UnicodeScalar(UInt8($0))) }.joined() + "\"quoted\" back\\slash /slash é 😀 \u{7F} and more plain text"
        var encoder = FrameEncoder()
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 1))
        let bytes = encoder.encode(header, fields: [TLVField(tag: .text, text: text), TLVField(tag: .error, bytes: [0, 4] + Array(text.utf8))])
        for event in StreamCapture.events(of: bytes) {
            guard case let .frame(frame) = event else { continue }
            let record = frame.record
            #expect(record.isValid)
            #expect(Self.written(record) == (try Self.foundation(try record.withParts { try FrameRecordJSON($0) })))
        }
    }

    @Test("every frame and note of every sample capture")
    func captureRecords() throws {
        for capture in SampleCapture.all {
            let dissection = CaptureDissection(capture.bytes)
            for event in dissection.events {
                if case let .frame(frame) = event {
                    var writer = FrameJSONWriter()
                    let out = OutputBuffer()
                    frame.withView { writer.write($0, to: out) }
                    #expect(String(decoding: out.bytes, as: UTF8.self) == (try Self.foundation(try frame.withView { try FrameRecordJSON($0) })), "\(capture.name)")
                } else if let note = CaptureNoteJSON(event) {
                    #expect(JSONLine.encode(note) == (try Self.foundation(note)), "\(capture.name)")
                }
            }
        }
    }
}
