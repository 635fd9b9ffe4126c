import DecafFuzz
import DecafVectors
import DecafWire
import Testing

/// The fuzzer's inputs: structured, mostly repaired so they get past the checksum, and the same
/// for the same seed.
@Suite("Frame mutator")
struct FrameMutatorTests {
    /// The golden vectors that decode as one valid frame with default options: the corpus.
    static let corpus: [[UInt8]] = FrameVectorFile.all.flatMap(\.groups)
        .filter { $0.options == DecodeOptions() }
        .flatMap(\.tests).filter { $0.result == .valid }.map(\.bytes)

    static func run(seed: UInt64, count: Int, options: DecodeOptions = DecodeOptions()) -> [(bytes: [UInt8], mutations: [FrameMutation])] {
        var mutator = FrameMutator(seed: seed, options: options)
        return (0..<count).map { index in
            mutator.mutate(corpus[index % corpus.count], donor: corpus[(index * 7 + 3) % corpus.count])
        }
    }

    @Test("the same seed gives the same inputs; another seed, others")
    func deterministic() {
        #expect(!Self.corpus.isEmpty)
        let first = Self.run(seed: 42, count: 300).map(\.bytes)
        #expect(first == Self.run(seed: 42, count: 300).map(\.bytes))
        #expect(first != Self.run(seed: 43, count: 300).map(\.bytes))
    }

    @Test("a repaired input's body_length and checksum hold, so it reaches the parser behind them")
    func repairedInputsGetDeep() {
        let inputs = Self.run(seed: 7, count: 2000, options: DecodeOptions(bodyLimit: 4096))
        var repaired = 0, pastChecksum = 0
        for input in inputs where input.mutations.last == .repaired {
            repaired += 1
            let header = FrameHeader(decoding: input.bytes)
            #expect(header?.bodyLength == UInt32(input.bytes.count - FrameHeader.size))
            #expect(header?.checksum == CRC32.checksum(input.bytes[FrameHeader.size...]))
            if case let .refused(code, _, _) = DecodeOutcome(of: input.bytes, options: DecodeOptions(bodyLimit: 4096)), code == .checksumMismatch {
                Issue.record("a repaired input was refused for its checksum: \(input.mutations)")
            } else {
                pastChecksum += 1
            }
        }
        // Most are repaired: not the tenth left as mutated, those that lie in body_length or the
        // checksum on purpose, nor those cut shorter than a header (about 68% at this seed).
        #expect(repaired > inputs.count * 6 / 10)
        #expect(pastChecksum == repaired)
    }

    @Test("the mutants cover the tree, compression, the header and the bytes, and both outcomes")
    func coverage() {
        let inputs = Self.run(seed: 11, count: 3000, options: DecodeOptions(bodyLimit: 4096))
        let mutations = inputs.flatMap(\.mutations)
        func has(_ match: (FrameMutation) -> Bool) -> Bool { mutations.contains(where: match) }
        #expect(has { if case .nestedDeeper = $0 { true } else { false } })
        #expect(has { if case .duplicatedField = $0 { true } else { false } })
        #expect(has { if case .lyingLength = $0 { true } else { false } })
        #expect(has { if case .splicedField = $0 { true } else { false } })
        #expect(has { if case .compressionBomb = $0 { true } else { false } })
        #expect(has { if case .corruptedZlibStream = $0 { true } else { false } })
        #expect(has { if case .headerField(.messageType, _) = $0 { true } else { false } })
        #expect(has { if case .flippedBit = $0 { true } else { false } })
        let outcomes = inputs.map { DecodeOutcome(of: $0.bytes, options: DecodeOptions(bodyLimit: 4096)) }
        let codes = Set(outcomes.compactMap { if case let .refused(code, _, _) = $0 { code } else { nil } })
        #expect(outcomes.filter(\.isAccepted).count > inputs.count / 10)
        // Refusals from deep in the frame, not only at the checksum.
        for code in [ErrorCode.tlvTooDeep, .tlvDuplicateTag, .tlvLengthOverflow, .decompressionFailed, .bodyTooLarge, .checksumMismatch] {
            #expect(codes.contains(code), "no mutant was refused with \(code.name)")
        }
    }

    @Test("each mutation says what it did in the protocol's words")
    func descriptions() {
        #expect(FrameMutation.headerField(.messageType, 0xFF).description == "msg_type set to 0x000000FF (255)")
        #expect(FrameMutation.nestedDeeper(depth: 4).description == "the body nested 4 containers deep")
        #expect(FrameMutation.lyingLength(.text, by: 1).description == "the TEXT field's length +1 from its value's")
        #expect(FrameMutation.insideCompressedBody(.value(.text, "a NUL")).description == "inside the zlib body: the TEXT field's value set to a NUL")
    }

    /// Byte edits of a zlib stream only break it; the fields inside a compressed body are reached
    /// by inflating it, editing it as a plain one, and compressing it again.
    @Test("a compressed body is mutated inside: fields and values edited, the body compressed again and still whole")
    func insideCompressedBodies() throws {
        let compressed = Self.corpus.filter { $0[FrameHeader.Field.compressType.offset] == CompressType.zlib.rawValue }
        try #require(!compressed.isEmpty)
        var mutator = FrameMutator(seed: 5)
        var inside: [FrameMutation] = []
        for index in 0..<2000 {
            let (bytes, mutations) = mutator.mutate(compressed[index % compressed.count])
            for case let .insideCompressedBody(mutation) in mutations {
                inside.append(mutation)
                // Still a zlib stream the decoder inflates, when repaired and no later edit broke it.
                if mutations.count == 2, mutations.last == .repaired, case let .refused(code, _, _) = DecodeOutcome(of: bytes, options: DecodeOptions()) {
                    #expect(code != .decompressionFailed && code != .checksumMismatch, "\(mutations)")
                }
            }
        }
        #expect(inside.contains { if case .value(.text, _) = $0 { true } else { false } }, "a TEXT value set inside a compressed body")
        #expect(inside.contains { if case .nestedDeeper = $0 { true } else { false } })
        #expect(inside.contains { if case .setByte = $0 { true } else { false } } || inside.contains { if case .flippedBit = $0 { true } else { false } })
    }
}
