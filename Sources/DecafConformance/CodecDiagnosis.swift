import DecafDiagnosis
import DecafWire

/// The diagnosis of a codec run: which catalogued mistakes (`CodecMistake`), planted together in
/// the reference (`CodecModel`), give the verdicts the testee got. Greedy, as set cover is: each
/// round adds the mistake that explains the most failures not yet explained, among those whose
/// model fails no case the testee passed and explains at least half of the failures it predicts;
/// it stops when none explains one more. Pure.
public struct CodecDiagnosis {
    let cases: [CodecCase]
    /// The verdict the testee got in each case, by case ID.
    let actual: [String: Verdict]
    /// Each mistake's verdict in the cases its model judges otherwise than the reference: the only
    /// cases a set of mistakes holding it needs judging again.
    private var alone: [CodecMistake: [Int: Verdict]] = [:]
    /// What the reference codec gets in each case: a pass, except where the brief lets a case go either way.
    private var reference: [Verdict] = []

    /// The defects of a testee whose verdicts in `cases` are `results` (cases not in `results`
    /// did not run), and the failures they leave unexplained.
    public static func diagnose(cases: [CodecCase], results: [CaseResult]) -> Diagnosis {
        var diagnosis = CodecDiagnosis(cases: cases, results: results)
        return diagnosis.diagnose()
    }

    private init(cases: [CodecCase], results: [CaseResult]) {
        let ran = Dictionary(results.map { ($0.testCase.id, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        self.cases = cases.filter { ran[$0.id] != nil }
        actual = ran
    }

    private mutating func diagnose() -> Diagnosis {
        let failing = cases.indices.filter { actual[cases[$0].id]!.kind.isFailure }
        guard !failing.isEmpty else { return Diagnosis(defects: [], failures: 0, unexplained: []) }
        let catalog = Self.catalogVerdicts
        reference = cases.map { catalog.reference[$0.id] ?? CodecJudge(codecCase: $0).judge(CodecModel().answer(to: $0)) }
        for mistake in CodecMistake.allCases {
            var verdicts: [Int: Verdict] = [:]
            for index in cases.indices {
                guard let verdict = catalog.reference[cases[index].id] == nil ? judge(cases[index], with: mistake) : catalog.alone[mistake]?[cases[index].id] else { continue }
                if verdict != reference[index] { verdicts[index] = verdict }
            }
            alone[mistake] = verdicts
        }
        var chosen: [CodecMistake] = []
        var explained: Set<Int> = []
        while true {
            var best: (mistake: CodecMistake, explained: Set<Int>)?
            for mistake in CodecMistake.allCases where !chosen.contains(mistake) && !(alone[mistake] ?? [:]).isEmpty {
                guard let explaining = explanation(of: chosen + [mistake]), explaining.count > explained.count,
                      explaining.count > best?.explained.count ?? 0 else { continue }
                best = (mistake, explaining)
            }
            guard let best else { break }
            chosen.append(best.mistake)
            explained = best.explained
        }
        let defects = chosen.sorted().compactMap { mistake -> Defect? in
            // A failure is this mistake's when the others alone do not explain it (or, where they
            // do, one its model changes).
            let others = explanation(of: chosen.filter { $0 != mistake }, strict: false) ?? []
            let own = explained.subtracting(others)
            let mine = own.isEmpty ? explained.intersection((alone[mistake] ?? [:]).keys) : own
            return mine.isEmpty ? nil : defect(mistake, explaining: mine.sorted())
        }
        return Diagnosis(defects: defects, failures: failing.count, unexplained: failing.filter { !explained.contains($0) }.map { cases[$0].id })
    }

    private func judge(_ codecCase: CodecCase, with mistake: CodecMistake) -> Verdict {
        CodecJudge(codecCase: codecCase).judge(CodecModel([mistake]).answer(to: codecCase))
    }

    /// The reference's verdict in every catalog case, and each mistake's where it differs: the
    /// same for every testee, so worked out once, as the cases are.
    static let catalogVerdicts: (reference: [String: Verdict], alone: [CodecMistake: [String: Verdict]]) = {
        let reference = Dictionary(CodecCase.all.map { ($0.id, CodecJudge(codecCase: $0).judge(CodecModel().answer(to: $0))) }, uniquingKeysWith: { first, _ in first })
        var alone: [CodecMistake: [String: Verdict]] = [:]
        for mistake in CodecMistake.allCases {
            let model = CodecModel([mistake])
            for codecCase in CodecCase.all {
                let verdict = CodecJudge(codecCase: codecCase).judge(model.answer(to: codecCase))
                if verdict != reference[codecCase.id] { alone[mistake, default: [:]][codecCase.id] = verdict }
            }
        }
        return (reference, alone)
    }()

    /// The failing cases `mistakes`' model explains, or nil when it fails a case the testee passed
    /// or explains under half the failures it predicts (`strict`).
    private func explanation(of mistakes: [CodecMistake], strict: Bool = true) -> Set<Int>? {
        guard !mistakes.isEmpty else { return [] }
        let indices = mistakes.reduce(into: Set<Int>()) { $0.formUnion((alone[$1] ?? [:]).keys) }
        let model = CodecModel(Set(mistakes))
        var explained: Set<Int> = []
        var predicted = 0
        for index in indices {
            let verdict = mistakes.count == 1 ? alone[mistakes[0]]![index]! : CodecJudge(codecCase: cases[index]).judge(model.answer(to: cases[index]))
            let got = actual[cases[index].id]!
            guard verdict.kind.isFailure else { continue }
            predicted += 1
            if strict, got.kind.isPass { return nil }
            if Self.same(verdict, got, zlibEncoding: cases[index].isZlibEncoding) { explained.insert(index) }
        }
        if strict, explained.count * 2 < predicted { return nil }
        return explained
    }

    /// Whether a model's verdict is the testee's: the same failure, the same reason, what was
    /// expected and what came (a zlib stream's bytes aside: compressors differ).
    static func same(_ model: Verdict, _ got: Verdict, zlibEncoding: Bool) -> Bool {
        model.kind == got.kind && model.reason == got.reason && model.expected == got.expected && (zlibEncoding || model.actual == got.actual)
    }

    private func defect(_ mistake: CodecMistake, explaining indices: [Int]) -> Defect {
        let shortest = indices.min { cases[$0].inputSize < cases[$1].inputSize }!
        let verdict = actual[cases[shortest].id]!
        return Defect(name: mistake.name, cause: mistake.cause, requirements: mistake.breaks, fix: mistake.fix,
                      explains: indices.map { cases[$0].id },
                      evidence: Defect.Evidence(caseID: cases[shortest].id, bytes: cases[shortest].inputSize, expected: verdict.expected, actual: verdict.actual))
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
