@testable import DecafConformance
@testable import DecafFuzz
import DecafVectors
import DecafWire
import Testing

/// The zoo of legal codecs: `decaf testee decoder` with every combination of the choices the brief
/// leaves a receiver (`ReceiverChoice`). Each passes the whole codec suite and is never a finding of
/// the decoder fuzzer's oracle, on the golden vectors and on mutants of them, in memory. The long
/// campaigns against each, as processes, are `tools/zoo/legal.py` (not the default test run). One
/// member at a time: side by side they would take both cores from the socket tests of the run.
@Suite("the zoo of legal codecs", .serialized)
struct LegalCodecZooTests {
    /// Every combination of the choices, none first.
    static let members: [Set<ReceiverChoice>] = (0..<(1 << ReceiverChoice.allCases.count)).map { mask in
        Set(ReceiverChoice.allCases.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element))
    }

    static func answer(_ testee: CodecTestee, _ codecCase: CodecCase) -> TesteeMessage.Response? {
        if case let .answer(response) = testee.reply(to: TesteeMessage.request(for: codecCase)) { response } else { nil }
    }

    @Test("each member passes every codec case (the member with every choice the 10 MiB ones too)", arguments: members)
    func passesTheSuite(choices: Set<ReceiverChoice>) throws {
        let testee = CodecTestee(choices: choices)
        // A debug build spends seconds on each 10 MiB case; the choices concern headers,
        // encryption and nesting, which those cases share with the small ones.
        for codecCase in CodecCase.all where choices.count == ReceiverChoice.allCases.count || codecCase.inputSize < 65536 {
            let response = try #require(Self.answer(testee, codecCase))
            let verdict = CodecJudge(codecCase: codecCase).judge(response)
            #expect(verdict.kind.isPass, "\(codecCase.id): \(verdict.reason)")
        }
    }

    @Test("each member answers the golden vectors and 300 of their mutants within LegalOutcomes: no finding", arguments: members)
    func noFinding(choices: Set<ReceiverChoice>) throws {
        let testee = CodecTestee(choices: choices)
        // The vectors under 64 KiB: mutants of a 10 MiB body cost a debug build seconds each, and
        // the choices concern headers, encryption and nesting, not size.
        let corpus = CodecCase.all.filter { if case .decode = $0.task { $0.vector.bytes.count < 65536 } else { false } }.map(\.vector.bytes)
        var mutator = FrameMutator(seed: 0x200 + UInt64(choices.count))
        var inputs = corpus
        for number in 0..<300 { inputs.append(mutator.mutate(corpus[number % corpus.count], donor: corpus[(number * 7) % corpus.count]).bytes) }
        var asked = 0
        for (number, bytes) in inputs.enumerated() {
            guard let codecCase = DecoderCase.make(bytes, options: DecodeOptions(), number: number) else { continue }
            asked += 1
            let response = try #require(Self.answer(testee, codecCase))
            let passes = CodecJudge(codecCase: codecCase).judge(response).kind.isPass
            #expect(passes || DecoderCase.isLegal(response, of: codecCase), "input \(number) \(Hex.string(bytes.prefix(64))): \(response)")
        }
        #expect(asked > 450)
    }

    @Test("each choice changes the answer where the brief lets it: the zoo holds more than one codec")
    func choicesMatter() throws {
        let aes256 = LegalOutcomeTests.frame(.data, encrypt: .aes256, payload: TLVEncoder.encode([TLVField(tag: .text, text: "x")]))
        let emptyDeep = LegalOutcomeTests.frame(.data, payload: (0..<5).reduce([UInt8]()) { inner, _ in TLVEncoder.encode([TLVField(tag: .container, bytes: inner)]) })
        let badMagic: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF]
        for (choice, bytes) in [(ReceiverChoice.decryptsAES256, aes256), (.emptyContainerPastLimit, emptyDeep), (.wholeHeader, badMagic)] {
            let codecCase = try #require(DecoderCase.make(bytes, options: DecodeOptions(), number: 1))
            let plain = try #require(Self.answer(CodecTestee(), codecCase)), chosen = try #require(Self.answer(CodecTestee(choices: [choice]), codecCase))
            #expect(plain != chosen, "\(choice)")
            #expect(DecoderCase.isLegal(chosen, of: codecCase) && DecoderCase.isLegal(plain, of: codecCase), "\(choice)")
        }
    }
}
