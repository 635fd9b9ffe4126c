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
/// so the search judges only what can change its answer: the most promising mistakes first, in
/// the failures still unexplained, and only until no other could explain more than the best
/// found (lazy greedy: what a mistake may explain is bounded before it is judged); in the cases
/// the testee passed only once it would be chosen; each verdict once, the cases of one model side
/// by side on every core. Pure.
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
    /// Each case's verdict without a mistake, judged as the search first needs it.
    private var reference: [Verdict?]
    private let judge: @Sendable ([Mistake], Int) -> Verdict
    private let same: (Verdict, Verdict, Int) -> Bool
    private let failing: [Int]
    private let passed: [Int]
    /// Each mistake's model's verdicts where they differ from the reference, by case index, among
    /// the cases judged so far (`judged`).
    private var differs: [Mistake: [Int: Verdict]] = [:]
    private var judged: [Mistake: Set<Int>] = [:]
    /// The verdicts of models of several mistakes together judged so far, by case index: each
    /// round of the search asks again for most of them.
    private var together: [Set<Mistake>: [Int: Verdict]] = [:]
    /// The failing cases a mistake is judged in before it is named, in the search under way.
    private var relevant: (Mistake, Int) -> Bool = { _, _ in true }

    /// The diagnosis of the testee's verdicts in `cases` over `catalog` (in the order defects
    /// are reported): `reference` is each case's verdict without a mistake (nil: judged by `judge`
    /// with none, where the search needs it), `judge` the verdict of
    /// a model with mistakes in the case at an index, `same` whether a model's verdict is the
    /// testee's there. With `firstRelevant`, a mistake is first judged only in the failing cases
    /// that check a requirement it breaks or whose verdict names one, and the failures that leaves
    /// unexplained are then judged against every mistake: first in a few of them (`sampleSize`,
    /// spread over the run), then, if some are still unexplained, in all. The same answer, at a
    /// fraction of the cost, for a run whose failures have catalogued causes: a mistake whose
    /// failures show under other requirements (a peer that writes checksums in host order fails
    /// its handshakes) shows in a few of them.
    public static func diagnose(cases: [Case], catalog: [Mistake], reference: [Verdict]? = nil, firstRelevant: Bool = true,
                                judge: @escaping @Sendable ([Mistake], Int) -> Verdict, same: @escaping (Verdict, Verdict, Int) -> Bool) -> Diagnosis {
        var search = DefectSearch(cases: cases, catalog: catalog, reference: reference, judge: judge, same: same)
        guard !search.failing.isEmpty else { return Diagnosis(defects: [], failures: 0, unexplained: []) }
        var diagnosis = search.settled { mistake, index in
            let breaks = Set(mistake.breaks)
            return !firstRelevant || !breaks.isDisjoint(with: cases[index].requirements) || !breaks.isDisjoint(with: cases[index].actual.requirements)
        }
        if firstRelevant, diagnosis.unexplained.count > sampleSize {
            let sample = Set(sample(of: diagnosis.unexplained, sizes: Dictionary(cases.map { ($0.id, $0.size) }, uniquingKeysWith: max)))
            diagnosis = search.settled { _, index in sample.contains(cases[index].id) }
        }
        if !diagnosis.unexplained.isEmpty {
            let unexplained = Set(diagnosis.unexplained)
            diagnosis = search.settled { _, index in unexplained.contains(cases[index].id) }
        }
        return diagnosis
    }

    /// How many of the failures the first judging leaves unexplained every mistake is judged in
    /// before all of them are.
    static var sampleSize: Int { 12 }

    /// About `sampleSize` of the failures `unexplained` (ids in the run's order), spread over the
    /// run: the run cut into that many stretches, the case that gives the testee fewest bytes in
    /// each. A model is judged by simulating the case, so a case of a megabyte costs a thousand
    /// small ones, and every mistake is judged in the sample.
    static func sample(of unexplained: [String], sizes: [String: Int]) -> [String] {
        let stretch = unexplained.count / sampleSize + 1
        return stride(from: 0, to: unexplained.count, by: stretch).map { start in
            unexplained[start..<min(start + stretch, unexplained.count)].min { sizes[$0, default: 0] < sizes[$1, default: 0] }!
        }
    }

    private init(cases: [Case], catalog: [Mistake], reference: [Verdict]?, judge: @escaping @Sendable ([Mistake], Int) -> Verdict,
                 same: @escaping (Verdict, Verdict, Int) -> Bool) {
        self.cases = cases
        self.catalog = catalog
        self.reference = reference ?? Array(repeating: nil, count: cases.count)
        self.judge = judge
        self.same = same
        failing = cases.indices.filter { cases[$0].actual.kind.isFailure }
        // The smallest first: judged a chunk at a time, a model that fails one is told cheaply.
        passed = cases.indices.filter { !cases[$0].actual.kind.isFailure }.sorted { (cases[$0].size, $0) < (cases[$1].size, $1) }
    }

    /// The greedy search, each mistake judged in the failing cases `judging` picks (besides those
    /// judged before) and each mistake it names in every failing case, and the search again while
    /// that taught it something: a mistake whose failures show under other requirements (a client
    /// that delivers repeats sends their read receipts again) is credited with them, not a second
    /// mistake that explains only those.
    private mutating func settled(judging: @escaping (Mistake, Int) -> Bool) -> Diagnosis {
        relevant = judging
        while true {
            let failures = Set(failing)
            let before = judged.mapValues { $0.intersection(failures).count }
            let (chosen, explained) = search()
            // Each mistake is chosen on what was judged when it was; judged since in every
            // failure, the search runs again with what that taught (another may explain more).
            let learned = chosen.contains { judged[$0, default: []].intersection(failures).count != before[$0, default: 0] }
            guard learned else { return diagnosis(chosen, explaining: explained) }
        }
    }

    /// The greedy search over the verdicts judged so far: the mistakes it chose, and the failures they explain.
    private mutating func search() -> (chosen: [Mistake], explained: Set<Int>) {
        var chosen: [Mistake] = []
        var explained: Set<Int> = []
        while true {
            let unexplained = failing.filter { !explained.contains($0) }
            let touchedByChosen = Set(touched(by: chosen, in: unexplained))
            // The most a mistake could explain beside those chosen: what is explained, and each
            // failure still unexplained that its model or theirs may change (where it differs,
            // or is to be judged and not yet). Mistakes are judged most promising first, and only
            // until none left could beat the best found: a testee with one defect costs about
            // that one's verdicts.
            let order = catalog.indices.filter { !chosen.contains(catalog[$0]) }.map { position in
                let mistake = catalog[position]
                return (position: position, most: explained.count + unexplained.count { index in
                    touchedByChosen.contains(index) || differs[mistake]?[index] != nil
                        || relevant(mistake, index) && !judged[mistake, default: []].contains(index)
                })
            }.sorted { ($0.most, -$0.position) > ($1.most, -$1.position) }
            // The most explaining (the catalog's order among equals) that fails no case the testee passed.
            var best: (position: Int, mistake: Mistake, explained: Set<Int>)?
            for candidate in order {
                if candidate.most <= explained.count { break }
                if let best, (best.explained.count, -best.position) >= (candidate.most, -candidate.position) { break }
                let mistake = catalog[candidate.position]
                judge(mistake, in: failing.filter { relevant(mistake, $0) })
                // A mistake whose model changes no failure still unexplained cannot explain one more.
                guard unexplained.contains(where: { differs[mistake]?[$0] != nil }),
                      let explaining = explanation(of: chosen + [mistake], beyond: max(explained.count, (best?.explained.count ?? 0) - 1), after: explained),
                      explaining.count > explained.count else { continue }
                if let best, (best.explained.count, -best.position) >= (explaining.count, -candidate.position) { continue }
                if failsNothingPassed(chosen + [mistake]) { best = (candidate.position, mistake, explaining) }
            }
            if let best {
                chosen.append(best.mistake)
                explained = best.explained
            } else if let pair = bestPair(beside: chosen, explained: explained, unexplained: unexplained, beyond: explained.count) {
                chosen += pair.mistakes
                explained = pair.explained
            } else {
                break
            }
            // What is chosen is judged in every failure at once: judged in a few, a mistake that
            // changes only the others would seem to add them beside it.
            for mistake in chosen { judge(mistake, in: failing) }
            explained.formUnion(explanation(of: chosen, strict: false) ?? [])
        }
        return (chosen, explained)
    }

    /// The diagnosis of the mistakes `chosen`, which explain the failures `explained` (and those
    /// only all of them together give): each with the failures that are its own.
    private mutating func diagnosis(_ chosen: [Mistake], explaining explained: Set<Int>) -> Diagnosis {
        let onlyTogether = onlyTogether(chosen, unexplained: failing.filter { !explained.contains($0) })
        let explained = explained.union(onlyTogether)
        var defects: [Defect] = []
        for mistake in catalog where chosen.contains(mistake) {
            // A failure is this mistake's when the others alone do not explain it (or, where they
            // do, one its model changes).
            let rest = chosen.filter { $0 != mistake }
            let others = (explanation(of: rest, strict: false) ?? []).union(onlyTogether.filter { gives(rest, $0) })
            let own = explained.subtracting(others)
            let mine = own.isEmpty ? explained.intersection((differs[mistake] ?? [:]).keys) : own
            if !mine.isEmpty { defects.append(defect(mistake, explaining: mine.sorted())) }
        }
        return Diagnosis(defects: defects, failures: failing.count, unexplained: failing.filter { !explained.contains($0) }.map { cases[$0].id })
    }

    /// How many mistakes, those whose models alone change the most failures still unexplained, are
    /// tried two together once no one alone explains one more failure.
    static var pairCandidates: Int { 6 }

    /// The two mistakes that together explain the most failures, more than `least`, beside
    /// `chosen`, when no one alone explains one more: a peer that reads checksums and TLV lengths
    /// in host order writes both so too, so its every answer shows both, and neither alone gives
    /// one of them. Each of the two must explain more with the other than without it; nil when no
    /// pair does.
    private mutating func bestPair(beside chosen: [Mistake], explained: Set<Int>, unexplained: [Int], beyond least: Int) -> (mistakes: [Mistake], explained: Set<Int>)? {
        let ranked = catalog.indices.filter { !chosen.contains(catalog[$0]) }
            .map { position in (position: position, changes: unexplained.count { differs[catalog[position]]?[$0] != nil }) }
            .filter { $0.changes > 0 }
            .sorted { ($0.changes, -$0.position) > ($1.changes, -$1.position) }
            .prefix(Self.pairCandidates).map(\.position).sorted()
        // Each pair with the most it could explain (what is explained, and each failure still
        // unexplained that its models or those chosen change), judged most promising first and
        // only until none left could beat the best found, as single mistakes are.
        let touchedByChosen = Set(touched(by: chosen, in: unexplained))
        let pairs = ranked.enumerated().flatMap { offset, first in ranked.dropFirst(offset + 1).map { second in
            (first: first, second: second, most: explained.count + unexplained.count { index in
                touchedByChosen.contains(index) || differs[catalog[first]]?[index] != nil || differs[catalog[second]]?[index] != nil
            })
        } }.sorted { ($0.most, -$0.first, -$0.second) > ($1.most, -$1.first, -$1.second) }
        var best: (mistakes: [Mistake], explained: Set<Int>)?
        for candidate in pairs {
            let floor = max(least, best?.explained.count ?? 0)
            if candidate.most <= floor { break }
            let pair = [catalog[candidate.first], catalog[candidate.second]]
            guard let explaining = explanation(of: chosen + pair, beyond: floor, after: explained), explaining.count > floor else { continue }
            let needed = pair.allSatisfy { member in
                (explanation(of: chosen + pair.filter { $0 != member }, strict: false, beyond: explaining.count - 1, after: explained)?.count ?? 0) < explaining.count
            }
            if needed, failsNothingPassed(chosen + pair) { best = (pair, explaining) }
        }
        return best
    }

    /// The failures in `unexplained` that the model of every mistake in `chosen` together gives,
    /// though none of them alone changes the verdict: two faults that show only together.
    private mutating func onlyTogether(_ chosen: [Mistake], unexplained: [Int]) -> Set<Int> {
        guard chosen.count > 1 else { return [] }
        let untouched = unexplained.filter { index in !chosen.contains { differs[$0]?[index] != nil } }
        judge(together: chosen, in: untouched)
        return Set(untouched.filter { gives(chosen, $0) })
    }

    /// Whether the model of `mistakes` together fails the case at `index` as the testee did, where
    /// none of them alone changes the verdict (judged together now when two or more).
    private mutating func gives(_ mistakes: [Mistake], _ index: Int) -> Bool {
        let verdict: Verdict?
        switch mistakes.count {
        case 0: verdict = reference[index]
        case 1: verdict = differs[mistakes[0]]?[index] ?? reference[index]
        default:
            judge(together: mistakes, in: [index])
            verdict = together[Set(mistakes)]?[index]
        }
        guard let verdict else { return false }
        return verdict.kind.isFailure && same(verdict, cases[index].actual, index)
    }

    /// Judges `mistake`'s model alone in `indices` not judged before, on every core.
    private mutating func judge(_ mistake: Mistake, in indices: [Int]) {
        let fresh = indices.filter { judged[mistake, default: []].insert($0).inserted }
        let judge = judge
        let unknown = fresh.filter { reference[$0] == nil }
        for (index, verdict) in zip(unknown, Self.concurrently(unknown.count) { judge([], unknown[$0]) }) { reference[index] = verdict }
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
    /// changes the verdict, or nil (`strict`) when it explains under half the failures it predicts,
    /// or when it cannot explain more than `floor`. Judged a few dozen cases at a time, so a model
    /// that is plainly not the testee's costs a few dozen verdicts, not one for every failure:
    /// first the failures not in `known` (those explained so far, where a model beside the
    /// mistakes that explain them most likely explains them too, so only the others tell whether
    /// it can beat `floor`), each group the cases that give the testee fewest bytes first (a case
    /// of a megabyte costs a thousand small ones to simulate).
    private mutating func explanation(of mistakes: [Mistake], strict: Bool = true, beyond floor: Int = -1, after known: Set<Int> = []) -> Set<Int>? {
        guard !mistakes.isEmpty else { return [] }
        var explained: Set<Int> = []
        var predicted = 0
        let touched = touched(by: mistakes, in: failing).sorted { (known.contains($0) ? 1 : 0, cases[$0].size, $0) < (known.contains($1) ? 1 : 0, cases[$1].size, $1) }
        var start = 0
        while start < touched.count {
            let chunk = touched[start..<min(start + Self.chunk, touched.count)]
            judge(together: mistakes, in: Array(chunk))
            for index in chunk {
                let verdict = verdict(of: mistakes, at: index)
                guard verdict.kind.isFailure else { continue }
                predicted += 1
                if same(verdict, cases[index].actual, index) { explained.insert(index) }
            }
            start = chunk.endIndex
            let left = touched.count - start
            if explained.count + left <= floor || strict && predicted - explained.count > explained.count + left { return nil }
        }
        if strict, explained.count * 2 < predicted { return nil }
        return explained
    }

    /// How many cases a model of several mistakes is judged in at a time.
    private static var chunk: Int { 32 }

    /// Whether the model of `mistakes` passes every case the testee passed where one of them
    /// alone changes the verdict (judging them there now).
    private mutating func failsNothingPassed(_ mistakes: [Mistake]) -> Bool {
        // A chunk at a time: a model that fails a passed case is usually told by its first ones.
        for start in stride(from: 0, to: passed.count, by: Self.chunk) {
            let chunk = Array(passed[start..<min(start + Self.chunk, passed.count)])
            for mistake in mistakes { judge(mistake, in: chunk) }
            let touched = touched(by: mistakes, in: chunk).filter { cases[$0].actual.kind.isPass }
            judge(together: mistakes, in: touched)
            if touched.contains(where: { verdict(of: mistakes, at: $0).kind.isFailure }) { return false }
        }
        return true
    }

    /// Judges the model of `mistakes` together (two or more) in `indices` not judged before, on every core.
    private mutating func judge(together mistakes: [Mistake], in indices: [Int]) {
        guard mistakes.count > 1 else { return }
        let key = Set(mistakes)
        let fresh = indices.filter { together[key]?[$0] == nil }
        guard !fresh.isEmpty else { return }
        let judge = judge
        for (index, verdict) in zip(fresh, Self.concurrently(fresh.count) { judge(mistakes, fresh[$0]) }) {
            together[key, default: [:]][index] = verdict
        }
    }

    /// Of `indices`, those where one of `mistakes` alone changes the verdict, in order.
    private func touched(by mistakes: [Mistake], in indices: [Int]) -> [Int] {
        indices.filter { index in mistakes.contains { differs[$0]?[index] != nil } }
    }

    private func verdict(of mistakes: [Mistake], at index: Int) -> Verdict {
        mistakes.count == 1 ? differs[mistakes[0]]![index]! : together[Set(mistakes)]![index]!
    }

    private func defect(_ mistake: Mistake, explaining indices: [Int]) -> Defect {
        let shortest = indices.min { cases[$0].size < cases[$1].size }!
        let verdict = cases[shortest].actual
        return Defect(name: mistake.name, cause: mistake.cause, requirements: mistake.breaks, fix: mistake.fix,
                      explains: indices.map { cases[$0].id },
                      evidence: Defect.Evidence(caseID: cases[shortest].id, bytes: cases[shortest].size, expected: verdict.expected, actual: verdict.actual))
    }
}
