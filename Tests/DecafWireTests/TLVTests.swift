import DecafTestSupport
import DecafWire
import Testing

@Suite("TLV bodies (TLV-1 to TLV-4)")
struct TLVTests {
    let hello = TLVField(tag: .text, text: "hello")

    func nested(_ depth: Int, _ fields: [TLVField]) -> TLVField {
        (1..<depth).reduce(TLVField.container(fields)) { inner, _ in .container([inner]) }
    }

    @Test("fields encode as tag u16, length u32, value, with no padding")
    func layout() {
        #expect(TLVEncoder.encode([hello, .container([TLVField(tag: TLVTag(0x0042), bytes: [9])])]) ==
            [0x10, 0x01, 0, 0, 0, 5] + Array("hello".utf8) + [0xFF, 0xFF, 0, 0, 0, 7, 0x00, 0x42, 0, 0, 0, 1, 9])
    }

    @Test("random trees survive encode and decode, containers and order included")
    func roundTrip() throws {
        var random = SeededGenerator(seed: 0x7171)
        for _ in 0..<500 {
            let fields = random.fields()
            let bytes = TLVEncoder.encode(fields)
            #expect(try TLVDecoder().decode(bytes) == fields)
            #expect(TLVSequence(bytes).map(TLVField.init) == fields)
        }
    }

    @Test("offsets of the views are body offsets, nested ones included")
    func offsets() {
        let bytes = TLVEncoder.encode([hello, .container([TLVField(tag: .image, bytes: [1, 2]), hello])])
        let top = Array(TLVSequence(bytes))
        #expect(top.map(\.offset) == [0, 11])
        #expect(top[1].children.map(\.offset) == [17, 25])
    }

    @Test("a trailing fragment shorter than 6 bytes is TLV_TRUNCATED at its start", arguments: 1...5)
    func fragment(length: Int) {
        let bytes = TLVEncoder.encode([hello]) + [UInt8](repeating: 0, count: length)
        #expect(throws: WireError(.tlvTruncated(remaining: length), offset: 11)) { try TLVDecoder().decode(bytes) }
    }

    @Test("a value longer than what is left of its sequence is TLV_LENGTH_OVERFLOW, inside containers too")
    func overflow() {
        #expect(throws: WireError(.tlvLengthOverflow(tag: .text, length: 6, available: 5), offset: 0)) {
            try TLVDecoder().decode([0x10, 0x01, 0, 0, 0, 6] + Array("hello".utf8))
        }
        let child: [UInt8] = [0xFF, 0xFF, 0, 0, 0, 8, 0x10, 0x01, 0, 0, 0, 9, 0xAA, 0xBB] + [UInt8](repeating: 0, count: 20)
        #expect(throws: WireError(.tlvLengthOverflow(tag: .text, length: 9, available: 2), offset: 6)) {
            try TLVDecoder().decode(child)
        }
    }

    @Test("four nested containers are accepted and five are rejected at the fifth")
    func depth() throws {
        _ = try TLVDecoder().decode(TLVEncoder.encode([nested(4, [hello])]))
        #expect(throws: WireError(.tlvTooDeep(depth: 5, limit: 4), offset: 24)) {
            try TLVDecoder().decode(TLVEncoder.encode([nested(5, [hello])]))
        }
        #expect(throws: WireError(.tlvTooDeep(depth: 5, limit: 4), offset: 24)) {
            try TLVDecoder().decode(TLVEncoder.encode([nested(5, [])]))
        }
    }

    @Test("a depth limit far above the clamp still parses deep nesting without exhausting the stack")
    func deepNestingIsBounded() {
        let levels = 10_000
        var body: [UInt8] = []
        for level in 0..<levels {
            let valueLength = UInt32(hello.encodedLength + 6 * (levels - 1 - level))
            body += [0xFF, 0xFF, UInt8(valueLength >> 24), UInt8(truncatingIfNeeded: valueLength >> 16),
                     UInt8(truncatingIfNeeded: valueLength >> 8), UInt8(truncatingIfNeeded: valueLength)]
        }
        body += TLVEncoder.encode([hello])
        let options = TLVOptions(depthLimit: Int.max)
        #expect(throws: WireError(.tlvTooDeep(depth: TLVOptions.maximumDepthLimit + 1, limit: TLVOptions.maximumDepthLimit),
                                  offset: TLVOptions.maximumDepthLimit * 6)) {
            try TLVDecoder(options: options).decode(body)
        }
    }

    @Test("repeated tags are rejected per sequence, at the repeat, naming the first")
    func duplicates() throws {
        #expect(throws: WireError(.tlvDuplicateTag(tag: .text, firstOffset: 0), offset: 11)) {
            try TLVDecoder().decode(TLVEncoder.encode([hello, hello]))
        }
        _ = try TLVDecoder().decode(TLVEncoder.encode([hello, .container([hello, .container([hello])])]))
        let allowing = TLVDecoder(options: TLVOptions(allowsDuplicateTags: true))
        #expect(try allowing.decode(TLVEncoder.encode([hello, TLVField(tag: .text, text: "2")])).count == 2)
    }

    @Test("repeats are found in long sequences, and sibling sequences do not see each other's tags")
    func duplicatesInLongSequences() throws {
        let many = (0..<300).map { TLVField(tag: TLVTag(UInt16($0 * 7)), bytes: []) }
        let siblings = TLVField.container(many)
        _ = try TLVDecoder().decode(TLVEncoder.encode([siblings, TLVField(tag: .text, bytes: []),
                                                       TLVField(tag: .image, bytes: TLVEncoder.encode([siblings]))]))
        let nestedTwice = TLVField.container([.container(many), TLVField(tag: TLVTag(7), bytes: [])] + many.dropFirst(2))
        _ = try TLVDecoder().decode(TLVEncoder.encode([nestedTwice]))
        for repeated in [0, 8, 9, 150, 299] {
            let fields = many + [many[repeated]]
            #expect(throws: WireError(.tlvDuplicateTag(tag: many[repeated].tag, firstOffset: repeated * 6), offset: 300 * 6)) {
                try TLVDecoder().decode(TLVEncoder.encode(fields))
            }
        }
    }

    @Test("unknown tags are kept as raw bytes")
    func unknownTags() throws {
        let fields = [TLVField(tag: TLVTag(0x7FFF), bytes: [1, 2, 3]), TLVField(tag: TLVTag(0), bytes: [])]
        #expect(try TLVDecoder().decode(TLVEncoder.encode(fields)) == fields)
    }

    @Test("known values are read with their layouts, and odd ones are reported as malformed")
    func knownValues() {
        #expect(TLVValue(tag: .text, value: Array("hi".utf8)) == .text("hi"))
        #expect(TLVValue(tag: .text, value: [0xFF]) == .malformed("not valid UTF-8"))
        #expect(TLVValue(tag: .readReceipt, value: [0, 0, 0, 9]) == .readReceipt(ReadReceipt(sequence: SequenceNumber(rawValue: 9))))
        #expect(TLVValue(tag: .error, value: [0, 4] + Array("bad".utf8)) == .error(ErrorReport(code: 4, reason: "bad")))
        #expect(TLVValue(tag: .versionResponse, value: [1, 0, 0, 1]) == .versionResponse(VersionResponse(version: .v1_0, features: .basic)))
        #expect(TLVValue(tag: .container, value: []) == .container)
        #expect(TLVValue(tag: TLVTag(0x9999), value: [1]) == .bytes)
    }
}
