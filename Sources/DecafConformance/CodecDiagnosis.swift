import DecafDiagnosis
import DecafWire

/// The diagnosis of a codec run: which catalogued mistakes (`CodecMistake`), planted together in
/// the reference (`CodecModel`), give the verdicts the testee got (`DefectSearch`). Pure.
public enum CodecDiagnosis {
    /// The defects of a testee whose verdicts in `cases` are `results` (cases not in `results`
    /// did not run), and the failures they leave unexplained.
    public static func diagnose(cases given: [CodecCase], results: [CaseResult]) -> Diagnosis {
        let ran = Dictionary(results.map { ($0.testCase.id, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        let cases = given.filter { ran[$0.id] != nil }
        let searched = cases.map { DefectSearch<CodecMistake>.Case(id: $0.id, size: $0.inputSize, actual: ran[$0.id]!, requirements: $0.conformanceCase.requirements) }
        // Each model judged only where the search asks (a mistake that may still be named, in the
        // failures; one about to be named, in the passes): for a testee with one defect, about
        // that one's verdicts, not the whole catalog's.
        let reference = DefectSearch<CodecMistake>.concurrently(cases.count) { judge(cases[$0], with: []) }
        // A mistake of decoding writes the reference's bytes: its encode verdicts are the reference's
        // (a 10 MiB payload is compressed once, not once a mistake).
        @Sendable func judged(_ mistakes: [CodecMistake], _ index: Int) -> Verdict {
            if case .encode = cases[index].task, !CodecModel(Set(mistakes)).altersEncoding { return reference[index] }
            return judge(cases[index], with: mistakes)
        }
        return DefectSearch.diagnose(cases: searched, catalog: CodecMistake.allCases, reference: reference, firstRelevant: false, judge: judged,
                                     same: { model, got, index in same(model, got, zlibEncoding: cases[index].isZlibEncoding) })
    }

    private static func judge(_ codecCase: CodecCase, with mistakes: [CodecMistake]) -> Verdict {
        CodecJudge(codecCase: codecCase).judge(CodecModel(Set(mistakes)).answer(to: codecCase))
    }

    /// The reference's verdict in every catalog case, and each mistake's where it differs: the
    /// same for every testee, so worked out once, as the cases are (`decaf conform coverage`).
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
