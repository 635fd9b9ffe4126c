@testable import DecafConformance
@testable import DecafFuzz
import DecafWire
import Testing

/// A fuzzed input as a client case: what the suite's server sends after the handshake, and what
/// the brief says a client does with it.
@Suite("client cases of fuzzed inputs")
struct ClientInputCaseTests {
    static let options = DecodeOptions()

    static func make(_ bytes: [UInt8], split: [Int] = []) -> ClientCase? {
        ClientFuzzer.clientCase(bytes, options: options, number: 1, split: split, limit: .seconds(2))
    }

    static func sends(_ clientCase: ClientCase?) -> [Transmission] {
        clientCase?.script.connection(0).steps.compactMap { if case let .send(transmission) = $0 { transmission } else { nil } } ?? []
    }

    @Test("a valid DATA frame is taken: one ACK with its session, its payload delivered, the sentinel after it; the case keeps the fuzzer's limit")
    func valid() throws {
        let bytes = ServerCaseTests.frame(.data)
        let clientCase = try #require(Self.make(bytes, split: [3, 10]))
        let payload = TLVEncoder.encode([TLVField(tag: .text, text: "hi")])
        #expect(clientCase.check == .takes(SequenceNumber(category: .normal, counter: 7), session: SessionOpening.session, acknowledged: true, payload: payload))
        #expect(clientCase.level == .required && clientCase.requirements.contains(.ex1))
        #expect(clientCase.timeLimit(for: .suggested) == .seconds(2))
        let sends = Self.sends(clientCase)
        #expect(sends.first?.bytes == bytes && sends.first?.split == [3, 10])
        #expect(sends.count == 2, "the input, then the sentinel")
        #expect(clientCase.script.controlCounter == ClientCase.receivingControlCounter)
        #expect(clientCase.script.connection(1).steps == [.finish], "a client that comes back finds nothing more")
    }

    @Test("an ACK or an undefined type is taken without an ACK; a heartbeat with one; nothing delivered but the sentinel")
    func notData() {
        let ack = Self.make(ServerCaseTests.frame(.ack, fields: []))
        #expect(ack?.check == .takes(SequenceNumber(category: .usual(for: .ack), counter: 7), session: SessionOpening.session, acknowledged: false, payload: nil))
        #expect(ack?.requirements.contains(.ex3) == true)
        let heartbeat = Self.make(ServerCaseTests.frame(.heartbeat, fields: []))
        #expect(heartbeat?.check == .takes(SequenceNumber(category: .heartbeat, counter: 7), session: SessionOpening.session, acknowledged: true, payload: nil))
        #expect(heartbeat?.requirements.contains(.ex2) == true)
    }

    @Test("a CONTROL frame with an ERROR is a recommended case: the brief says what a client does with one only as far as the ACK")
    func announcing() {
        let error = ErrorReport(WireError(.badMagic(found: 0), offset: 0)).field
        #expect(Self.make(ServerCaseTests.frame(.control, fields: [error]))?.level == .recommended)
        #expect(Self.make(ServerCaseTests.frame(.control))?.level == .required)
    }

    @Test("a refused frame is refused with a close; one cut short is only not delivered when the server closes")
    func refused() throws {
        var bad = ServerCaseTests.frame(.data)
        bad[bad.count - 1] ^= 0xFF
        let refusal = try #require(Self.make(bad))
        #expect(refusal.check == .refuses(.checksumMismatch, sequence: SequenceNumber(category: .normal, counter: 7)))
        #expect(refusal.script.connection(0).steps.contains(.awaitClosed))
        #expect(refusal.requirements.contains(.ex5))
        let cut = try #require(Self.make(Array(ServerCaseTests.frame(.data).dropLast(2))))
        #expect(cut.check == .truncatedIgnored)
        #expect(cut.script.connection(0).steps.contains(.close))
    }

    @Test("a compressed input needs a client that offers COMPRESSION; the frames of the case's own sequences make no case")
    func compressionAndReserved() {
        var encoder = FrameEncoder()
        var header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 3), timestamp: 1_700_000_000, sessionID: SessionOpening.session)
        header.compressType = .zlib
        #expect(Self.make(encoder.encode(header, fields: [TLVField(tag: .text, text: "squeezed")]))?.needs == .compression)
        #expect(Self.make(ServerCaseTests.frame(.control, counter: ClientCase.receivingControlCounter + 1)) == nil, "the VERSION_RESPONSE's sequence")
        #expect(Self.make(ServerCaseTests.frame(.data, counter: 0xC0_FFEE)) == nil, "the sentinel's sequence")
        #expect(Self.make(ServerCaseTests.frame(.data) + ServerCaseTests.frame(.data)) == nil, "one frame at a time")
    }

    /// A client may be configured to allow repeats (TLV-3): a frame refused for a repeated tag
    /// alone may be taken, as the client suite allows; one of a type that gets no ACK is taken in
    /// silence, so its acceptance is the frame after it acknowledged (once a false finding against
    /// `decaf testee client --choice takes-duplicate-tags`).
    @Test("a repeated tag is refused, or taken by a client that allows repeats: with an ACK, or in silence for a type that gets none")
    func duplicateTags() {
        let twice = [TLVField(tag: .text, text: "one"), TLVField(tag: .text, text: "two")]
        #expect(Self.make(ServerCaseTests.frame(.data, fields: twice))?.check
            == .acceptsOrRefuses(SequenceNumber(category: .normal, counter: 7), .tlvDuplicateTag, acknowledged: true))
        #expect(Self.make(ServerCaseTests.frame(MessageType(rawValue: 5), fields: twice))?.check
            == .acceptsOrRefuses(SequenceNumber(category: .usual(for: MessageType(rawValue: 5)), counter: 7), .tlvDuplicateTag, acknowledged: false))
        // A repeat that is not the first fault stays a refusal: a deeper error follows it.
        var broken = ServerCaseTests.frame(.data, fields: twice)
        broken[broken.count - 1] ^= 0xFF
        #expect(Self.make(broken)?.check == .refuses(.checksumMismatch, sequence: SequenceNumber(category: .normal, counter: 7)))
        // A repeat followed by a byte past the frame: a client allowing repeats reads a frame and
        // bytes after it, so the input is not asked. It once was, judged by the strict reading alone,
        // and a 10-minute campaign against such a client (decaf testee client --choice
        // takes-duplicate-tags) reported its delivery of the frame as a disagreement.
        #expect(Self.make(ServerCaseTests.frame(.data, fields: twice) + [0x00]) == nil)
        // An empty container one past the depth limit, then a repeated tag: refused for the depth
        // by the strict reading, for the repeat by a client blaming the first field found too
        // deep, and taken by such a client that allows repeats. The zoo's client with every
        // choice delivered it, and a 10-minute campaign reported that as a disagreement.
        let fourDeep = (0..<3).reduce(TLVEncoder.encode([TLVField(tag: .container, bytes: [])])) { value, _ in
            TLVEncoder.encode([TLVField(tag: .container, bytes: value)])
        }
        let deepThenTwice = ServerCaseTests.frame(.data, fields: [TLVField(tag: .container, bytes: fourDeep)] + twice)
        #expect(Self.make(deepThenTwice)?.check
            == .acceptsOrRefuses(SequenceNumber(category: .normal, counter: 7), .tlvTooDeep, acknowledged: true))
    }

    @Test("a shorter input keeps the cuts that still fall inside it")
    func cuts() {
        #expect(ClientFuzzer.cuts([3, 10], within: 40) == [3, 10])
        #expect(ClientFuzzer.cuts([3, 10], within: 12) == [3])
        #expect(ClientFuzzer.cuts([30], within: 12) == [])
    }
}
