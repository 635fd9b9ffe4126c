@testable import DecafFuzz
import DecafSession
import DecafWire
import Testing

/// What the mutator draws, weighted by what has paid off: the base shares until an epoch has been
/// heard of, more of what paid after, never less than a quarter of any base share.
@Suite("mutation payoff")
struct MutationPayoffTests {
    /// The share of `count` draws each kind gets.
    static func shares(_ payoff: MutationPayoff, count: Int = 20_000) -> [MutationPayoff.Kind: Double] {
        var random = SeededRandom(seed: 9)
        var counts: [MutationPayoff.Kind: Int] = [:]
        for _ in 0..<count { counts[payoff.pick(using: &random), default: 0] += 1 }
        return counts.mapValues { Double($0) / Double(count) }
    }

    @Test("before anything paid, a draw picks what the unweighted mutator's draw of 0..<10 picked")
    func unweighted() {
        let payoff = MutationPayoff()
        var weighted = SeededRandom(seed: 5), plain = SeededRandom(seed: 5)
        for _ in 0..<5_000 {
            let kind = payoff.pick(using: &weighted)
            let expected: MutationPayoff.Kind = switch Int.random(in: 0..<10, using: &plain) {
            case 0, 1: .header
            case 2, 3, 4, 5: .fields
            case 6: .compression
            default: .bytes
            }
            #expect(kind == expected)
        }
    }

    @Test("a kind that pays is drawn more from the epoch after next, up to four times its share; the others keep a quarter of theirs")
    func weighted() {
        var payoff = MutationPayoff()
        let header = FrameMutation.headerField(.messageType, 5), bytes = FrameMutation.flippedBit(at: 3)
        for number in 1...MutationPayoff.epoch {
            payoff.record([header], paid: true, number: number)
            payoff.record([bytes, .repaired], paid: false, number: number)
        }
        // Inputs of the next epoch are drawn before the last one's payoffs can be known.
        payoff.prepare(for: 2 * MutationPayoff.epoch)
        #expect(payoff.weights == MutationPayoff.Kind.allCases.map { $0.base * 100 })
        payoff.prepare(for: 2 * MutationPayoff.epoch + 1)
        let shares = Self.shares(payoff)
        #expect(shares[.header]! > 0.5, "\(shares)")
        for kind in [MutationPayoff.Kind.fields, .compression, .bytes] {
            #expect(shares[kind]! >= Double(kind.base) / 10 / 4 * 0.8 / (Double(payoff.weights.reduce(0, +)) / 1000), "\(kind): \(shares)")
        }
        let headerWeight = payoff.weights[MutationPayoff.Kind.header.rawValue]
        #expect(headerWeight > 400 && headerWeight <= 800, "more than twice its base, four times at most: \(payoff.weights)")
        #expect(payoff.weights[MutationPayoff.Kind.bytes.rawValue] == 75, "a quarter of its base at least: \(payoff.weights)")
    }

    @Test("an edit inside a compressed body is the kind of its edit, and the repair is none")
    func kinds() {
        #expect(MutationPayoff.Kind(.insideCompressedBody(.emptiedField(.text))) == .fields)
        #expect(MutationPayoff.Kind(.compressionBomb(inflatedLength: 10)) == .compression)
        #expect(MutationPayoff.Kind(.repaired) == nil)
    }
}

/// The values the mutator takes from the corpus: the leaves of every body, inflated where
/// compressed, short ones only, each once, bounded.
@Suite("corpus dictionary")
struct CorpusDictionaryTests {
    static func frame(_ fields: [TLVField], compress: CompressType = .none) -> [UInt8] {
        var header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 1), timestamp: 1, sessionID: SessionID(rawValue: 1))
        header.compressType = compress
        var encoder = FrameEncoder()
        return encoder.encode(header, fields: fields)
    }

    @Test("the leaf values of plain and compressed bodies, nested or not, of 1 to 64 bytes, each once")
    func values() {
        let corpus = [
            Self.frame([TLVField(tag: .text, text: "zebra"), .container([TLVField(tag: .image, bytes: [1, 2, 3])])]),
            Self.frame([.container([TLVField(tag: .text, text: "okapi")]), TLVField(tag: .custom, bytes: [UInt8](repeating: 7, count: 65))], compress: .zlib),
            Self.frame([TLVField(tag: .text, text: "zebra"), TLVField(tag: .audio, bytes: [])]),
        ]
        let dictionary = CorpusDictionary(corpus, inflater: ZlibInflater(), bodyLimit: 1 << 20)
        #expect(dictionary.values == [Array("zebra".utf8), [1, 2, 3], Array("okapi".utf8)])
    }

    @Test("at most 256 values are kept")
    func bounded() {
        let corpus = (0..<300).map { Self.frame([TLVField(tag: .text, text: "value \($0)")]) }
        #expect(CorpusDictionary(corpus, inflater: ZlibInflater(), bodyLimit: 1 << 20).values.count == CorpusDictionary.limit)
    }

    @Test("the mutator puts a corpus value into another frame's field, and says so")
    func used() {
        let corpus = [Self.frame([TLVField(tag: .text, text: "hello")]), Self.frame([TLVField(tag: .custom, text: "quagga-42")])]
        var mutator = FrameMutator(seed: 3, corpus: corpus)
        let mutants = (1...3_000).map { mutator.mutate(corpus[0], number: $0) }
        let marker = Array("quagga-42".utf8)
        let carrying = mutants.filter { mutant in mutant.bytes.indices.contains { mutant.bytes[$0...].starts(with: marker) } }
        #expect(!carrying.isEmpty)
        #expect(mutants.contains { $0.mutations.contains { "\($0)".contains("a value of the corpus (9 bytes)") } })
    }
}
