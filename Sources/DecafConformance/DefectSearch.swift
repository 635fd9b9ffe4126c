import DecafDiagnosis
import DecafWire
import Dispatch
import Synchronization

/// The search every role's diagnosis makes (codec, server, client): the smallest set of
/// catalogued mistakes whose model, the reference with them planted together, gives the verdicts
/// the testee got. Greedy, as set cover is: each round adds the mistake that explains the most
/// failures not yet explained, among those whose model fails no case the testee passed and
/// explains at least half of the failures it predicts; it stops when none explains one more. A
/// failure is explained only by the very verdict the testee got (`same`), so a mistake is never
/// named for a failure of another cause, and what none explains stays unexplained.
///
/// A model is judged one case at a time (a peer or a client in memory costs a simulation each),
/// so the search judges only what can change its answer: a mistake in the failing cases first,
/// and in the cases the testee passed only once it would be chosen. Pure.
public struct DefectSearch<Mistake: CataloguedMistake> {
    /// One case of the run, as the search sees it.
    public struct Case {
        public var id: String
        /// How many bytes it gives the testee: the evidence of a defect is the shortest it explains.
        public var size: Int
        /// The verdict the testee got.
        public var actual: Verdict
        /// The requirements the case checks.
        public var requirements: [RequirementID]

        public init(id: String, size: Int, actual: Verdict, requirements: [RequirementID]) {
            self.id = id
            self.size = size
            self.actual = actual
            self.requirements = requirements
        }
    }

    private let cases: [Case]
    private let catalog: [Mistake]
    private let reference: [Verdict]
    private let judge: @Sendable ([Mistake], Int) -> Verdict
    private let same: (Verdict, Verdict, Int) -> Bool
    private let failing: [Int]
    private let passed: [Int]
    /// Each mistake's model's verdicts where they differ from the reference, by case index, among
    /// the cases judged so far (`judged`).
    private var differs: [Mistake: [Int: Verdict]] = [:]
    private var judged: [Mistake: Set<Int>] = [:]

    /// The diagnosis of the testee's verdicts in `cases` over `catalog` (in the order defects
    /// are reported): `reference` is each case's verdict without a mistake, `judge` the verdict of
    /// a model with mistakes in the case at an index, `same` whether a model's verdict is the
    /// testee's there. With `firstRelevant`, a mistake is first judged only in the failing cases
    /// that check a requirement it breaks or whose verdict names one, and the failures that leaves
    /// unexplained are then judged against every mistake: the same answer, at a fraction of the
    /// cost, for a run whose failures have catalogued causes.
    public static func diagnose(cases: [Case], catalog: [Mistake], reference: [Verdict], firstRelevant: Bool = true,
                                judge: @escaping @Sendable ([Mistake], Int) -> Verdict, same: @escaping (Verdict, Verdict, Int) -> Bool) -> Diagnosis {
        var search = DefectSearch(cases: cases, catalog: catalog, reference: reference, judge: judge, same: same)
        guard !search.failing.isEmpty else { return Diagnosis(defects: [], failures: 0, unexplained: []) }
        var diagnosis = search.settled { mistake, index in
            let breaks = Set(mistake.breaks)
            return !firstRelevant || !breaks.isDisjoint(with: cases[index].requirements) || !breaks.isDisjoint(with: cases[index].actual.requirements)
        }
        if !diagnosis.unexplained.isEmpty {
            let unexplained = Set(diagnosis.unexplained)
            diagnosis = search.settled { _, index in unexplained.contains(cases[index].id) }
        }
        return diagnosis
    }

    private init(cases: [Case], catalog: [Mistake], reference: [Verdict], judge: @escaping @Sendable ([Mistake], Int) -> Verdict,
                 same: @escaping (Verdict, Verdict, Int) -> Bool) {
        self.cases = cases
        self.catalog = catalog
        self.reference = reference
        self.judge = judge
        self.same = same
        failing = cases.indices.filter { cases[$0].actual.kind.isFailure }
        passed = cases.indices.filter { !cases[$0].actual.kind.isFailure }
    }

    /// The greedy search, each mistake judged in the failing cases `judging` picks (besides those
    /// judged before), then each mistake it names in every failing case, and the search again,
    /// until every mistake named was judged in every failure: a mistake whose failures show under
    /// other requirements (a client that delivers repeats sends their read receipts again) is
    /// credited with them, not a second mistake that explains only those.
    private mutating func settled(judging: (Mistake, Int) -> Bool) -> Diagnosis {
        for mistake in catalog { judge(mistake, in: failing.filter { judging(mistake, $0) }) }
        while true {
            let (diagnosis, chosen) = search()
            let partial = chosen.filter { !judged[$0, default: []].isSuperset(of: failing) }
            guard !partial.isEmpty else { return diagnosis }
            for mistake in partial { judge(mistake, in: failing) }
        }
    }

    /// The greedy search over the verdicts judged so far, and the mistakes it chose.
    private mutating func search() -> (Diagnosis, [Mistake]) {
        var chosen: [Mistake] = []
        var explained: Set<Int> = []
        while true {
            // A mistake whose model changes no failure still unexplained cannot explain one more.
            let unexplained = failing.filter { !explained.contains($0) }
            let ranked = catalog.compactMap { mistake -> (mistake: Mistake, explained: Set<Int>)? in
                guard !chosen.contains(mistake), unexplained.contains(where: { differs[mistake]?[$0] != nil }),
                      let explaining = explanation(of: chosen + [mistake]), explaining.count > explained.count else { return nil }
                return (mistake, explaining)
            }
            // The most explaining first (the catalog's order among equals), each ruled out if it fails a case the testee passed.
            var best: (mistake: Mistake, explained: Set<Int>)?
            for candidate in ranked.enumerated().sorted(by: { ($0.element.explained.count, -$0.offset) > ($1.element.explained.count, -$1.offset) }).map(\.element) {
                if failsNothingPassed(chosen + [candidate.mistake]) {
                    best = candidate
                    break
                }
            }
            guard let best else { break }
            chosen.append(best.mistake)
            explained = best.explained
        }
        let defects = catalog.filter(chosen.contains).compactMap { mistake -> Defect? in
            // A failure is this mistake's when the others alone do not explain it (or, where they
            // do, one its model changes).
            let others = explanation(of: chosen.filter { $0 != mistake }, strict: false) ?? []
            let own = explained.subtracting(others)
            let mine = own.isEmpty ? explained.intersection((differs[mistake] ?? [:]).keys) : own
            return mine.isEmpty ? nil : defect(mistake, explaining: mine.sorted())
        }
        return (Diagnosis(defects: defects, failures: failing.count, unexplained: failing.filter { !explained.contains($0) }.map { cases[$0].id }), chosen)
    }

    /// Judges `mistake`'s model alone in `indices` not judged before, on every core.
    private mutating func judge(_ mistake: Mistake, in indices: [Int]) {
        let fresh = indices.filter { judged[mistake, default: []].insert($0).inserted }
        let judge = judge
        for (index, verdict) in zip(fresh, Self.concurrently(fresh.count) { judge([mistake], fresh[$0]) }) where verdict != reference[index] {
            differs[mistake, default: [:]][index] = verdict
        }
    }

    /// `body` of 0..<count, run on every core, in order: judging a model is pure, each case on its own.
    public static func concurrently(_ count: Int, _ body: @Sendable (Int) -> Verdict) -> [Verdict] {
        let verdicts = Mutex<[Verdict?]>(Array(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let verdict = body(index)
            verdicts.withLock { $0[index] = verdict }
        }
        return verdicts.withLock { $0.map { $0! } }
    }

    /// The failing cases the model of `mistakes` explains, among those where one of them alone
    /// changes the verdict, or nil (`strict`) when it explains under half the failures it predicts.
    private func explanation(of mistakes: [Mistake], strict: Bool = true) -> Set<Int>? {
        guard !mistakes.isEmpty else { return [] }
        var explained: Set<Int> = []
        var predicted = 0
        for index in touched(by: mistakes, in: failing) {
            let verdict = verdict(of: mistakes, at: index)
            guard verdict.kind.isFailure else { continue }
            predicted += 1
            if same(verdict, cases[index].actual, index) { explained.insert(index) }
        }
        if strict, explained.count * 2 < predicted { return nil }
        return explained
    }

    /// Whether the model of `mistakes` passes every case the testee passed where one of them
    /// alone changes the verdict (judging them there now).
    private mutating func failsNothingPassed(_ mistakes: [Mistake]) -> Bool {
        for mistake in mistakes { judge(mistake, in: passed) }
        return !touched(by: mistakes, in: passed).contains { cases[$0].actual.kind.isPass && verdict(of: mistakes, at: $0).kind.isFailure }
    }

    /// Of `indices`, those where one of `mistakes` alone changes the verdict, in order.
    private func touched(by mistakes: [Mistake], in indices: [Int]) -> [Int] {
        indices.filter { index in mistakes.contains { differs[$0]?[index] != nil } }
    }

    private func verdict(of mistakes: [Mistake], at index: Int) -> Verdict {
        mistakes.count == 1 ? differs[mistakes[0]]![index]! : judge(mistakes, index)
    }

    private func defect(_ mistake: Mistake, explaining indices: [Int]) -> Defect {
        let shortest = indices.min { cases[$0].size < cases[$1].size }!
        let verdict = cases[shortest].actual
        return Defect(name: mistake.name, cause: mistake.cause, requirements: mistake.breaks, fix: mistake.fix,
                      explains: indices.map { cases[$0].id },
                      evidence: Defect.Evidence(caseID: cases[shortest].id, bytes: cases[shortest].size, expected: verdict.expected, actual: verdict.actual))
    }
}
