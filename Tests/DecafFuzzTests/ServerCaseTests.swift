import DecafConformance
@testable import DecafFuzz
import DecafWire
import Testing

/// A fuzzed input as a server case: the session's opening, the input as the plan sends it, and
/// what the brief says a server does with it.
@Suite("server cases of fuzzed inputs")
struct ServerCaseTests {
    static func frame(_ type: MessageType, counter: UInt32 = 7, fields: [TLVField] = [TLVField(tag: .text, text: "hi")]) -> [UInt8] {
        var encoder = FrameEncoder()
        let header = FrameHeader(messageType: type, sequence: SequenceNumber(category: .usual(for: type), counter: counter), timestamp: 1_700_000_000,
                                 sessionID: SessionOpening.session)
        return encoder.encode(header, fields: fields)
    }

    static func expectations(_ serverCase: ConformanceCase?) -> [DecafConformance.Expectation] {
        serverCase?.steps.compactMap { if case let .expect(expectation) = $0 { expectation } else { nil } } ?? []
    }

    @Test("a valid DATA frame is acknowledged after the handshake; a plan's DATA frame and writes come with it")
    func valid() throws {
        let bytes = Self.frame(.data)
        let plain = try #require(ServerCase.make(bytes, options: DecodeOptions(), number: 1, plan: ServerCase.Plan()))
        #expect(Self.expectations(plain).count == 2)
        #expect(Self.expectations(plain).last == .ack(SequenceNumber(category: .normal, counter: 7), session: SessionOpening.session))
        let planned = try #require(ServerCase.make(bytes, options: DecodeOptions(), number: 1, plan: ServerCase.Plan(split: [3, 10], dataFirst: true)))
        #expect(Self.expectations(planned).count == 3)
        let sends = planned.steps.compactMap { if case let .send(transmission) = $0 { transmission } else { nil } }
        #expect(sends.last?.bytes == bytes && sends.last?.split == [3, 10])
    }

    @Test("a refused frame is a fatal error; one cut short ends the stream and must be closed; an ACK-type frame gets none")
    func refused() throws {
        var bad = Self.frame(.data)
        bad[bad.count - 1] ^= 0xFF
        #expect(Self.expectations(ServerCase.make(bad, options: DecodeOptions(), number: 1, plan: .init())).last == .fatal(.checksumMismatch, exactCode: false))
        let cut = Array(Self.frame(.data).dropLast(2))
        let cutCase = try #require(ServerCase.make(cut, options: DecodeOptions(), number: 1, plan: .init()))
        #expect(cutCase.steps.contains(.endStream))
        #expect(Self.expectations(cutCase).last == .close([.truncatedFrame]))
        #expect(Self.expectations(ServerCase.make(Self.frame(.ack, fields: []), options: DecodeOptions(), number: 1, plan: .init())).last
                == .noAck(SequenceNumber(category: .usual(for: .ack), counter: 7)))
    }

    @Test("a VERSION_REQUEST is answered as HS-2 says; an input with an opening frame's sequence is not sent")
    func handshakeAndOpening() {
        let request = VersionRequest(version: ProtocolVersion(major: 2, minor: 0), features: .known)
        let bytes = Self.frame(.control, fields: [request.field])
        #expect(Self.expectations(ServerCase.make(bytes, options: DecodeOptions(), number: 1, plan: .init())).last
                == .versionResponse(to: request, sequence: SequenceNumber(category: .control, counter: 7), session: SessionOpening.session))
        #expect(ServerCase.make(Self.frame(.control, counter: ServerCase.openingCounter), options: DecodeOptions(), number: 1, plan: .init()) == nil)
        #expect(ServerCase.make(Self.frame(.data, counter: ServerCase.openingCounter), options: DecodeOptions(), number: 1, plan: .init()) == nil)
        #expect(ServerCase.make(Self.frame(.data) + Self.frame(.data), options: DecodeOptions(), number: 1, plan: .init()) == nil, "one frame at a time")
    }
}
