import DecafDiagnosis
import DecafWire

/// The diagnosis of a codec run: which catalogued mistakes (`CodecMistake`), planted together in
/// the reference (`CodecModel`), give the verdicts the testee got (`DefectSearch`). Each
/// mistake's verdicts in the catalog's cases are the same for every testee, so worked out once per
/// process. Pure.
public enum CodecDiagnosis {
    /// The defects of a testee whose verdicts in `cases` are `results` (cases not in `results`
    /// did not run), and the failures they leave unexplained.
    public static func diagnose(cases given: [CodecCase], results: [CaseResult]) -> Diagnosis {
        let ran = Dictionary(results.map { ($0.testCase.id, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        let cases = given.filter { ran[$0.id] != nil }
        let catalog = catalogVerdicts
        let searched = cases.map { DefectSearch<CodecMistake>.Case(id: $0.id, size: $0.inputSize, actual: ran[$0.id]!, requirements: $0.conformanceCase.requirements) }
        let reference = cases.map { catalog.reference[$0.id] ?? judge($0, with: []) }
        // A catalog case's verdict with one mistake is the catalog's (the reference's where it does not differ).
        @Sendable func judged(_ mistakes: [CodecMistake], _ index: Int) -> Verdict {
            let id = cases[index].id
            guard mistakes.count == 1, catalog.reference[id] != nil else { return judge(cases[index], with: mistakes) }
            return catalog.alone[mistakes[0]]?[id] ?? reference[index]
        }
        return DefectSearch.diagnose(cases: searched, catalog: CodecMistake.allCases, reference: reference, firstRelevant: false, judge: judged,
                                     same: { model, got, index in same(model, got, zlibEncoding: cases[index].isZlibEncoding) })
    }

    private static func judge(_ codecCase: CodecCase, with mistakes: [CodecMistake]) -> Verdict {
        CodecJudge(codecCase: codecCase).judge(CodecModel(Set(mistakes)).answer(to: codecCase))
    }

    /// The reference's verdict in every catalog case, and each mistake's where it differs: the
    /// same for every testee, so worked out once, as the cases are.
    static let catalogVerdicts: (reference: [String: Verdict], alone: [CodecMistake: [String: Verdict]]) = {
        let cases = CodecCase.all, mistakes = CodecMistake.allCases
        // The reference's verdicts, then each mistake's, judged on every core.
        let verdicts = DefectSearch<CodecMistake>.concurrently((mistakes.count + 1) * cases.count) { index in
            let codecCase = cases[index % cases.count]
            return judge(codecCase, with: index < cases.count ? [] : [mistakes[index / cases.count - 1]])
        }
        let reference = Dictionary(cases.indices.map { (cases[$0].id, verdicts[$0]) }, uniquingKeysWith: { first, _ in first })
        var alone: [CodecMistake: [String: Verdict]] = [:]
        for (number, mistake) in mistakes.enumerated() {
            for (index, codecCase) in cases.enumerated() {
                let verdict = verdicts[(number + 1) * cases.count + index]
                if verdict != reference[codecCase.id] { alone[mistake, default: [:]][codecCase.id] = verdict }
            }
        }
        return (reference, alone)
    }()

    /// Whether a model's verdict is the testee's: the same failure, the same reason, what was
    /// expected and what came (a zlib stream's bytes aside: compressors differ).
    static func same(_ model: Verdict, _ got: Verdict, zlibEncoding: Bool) -> Bool {
        model.kind == got.kind && model.reason == got.reason && model.expected == got.expected && (zlibEncoding || model.actual == got.actual)
    }
}

extension CodecCase {
    /// An encode case of a zlib frame: the testee's compressor picks its own bytes.
    var isZlibEncoding: Bool {
        if case let .encode(frame) = task { frame.header.compressType == .zlib } else { false }
    }

    /// The bytes the case gives the testee: a stream to decode, or a payload to encode.
    var inputSize: Int {
        switch task {
        case .decode: vector.bytes.count
        case let .encode(frame): frame.payload.count
        }
    }
}
