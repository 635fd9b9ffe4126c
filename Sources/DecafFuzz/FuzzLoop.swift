import DecafConformance
import DecafSession

/// The loop every campaign runs, whatever its target: mutants of the corpus drawn in a fixed
/// order from the seed (the same seed and corpus give the same inputs, whatever `jobs` is), asked
/// of the target `jobs` at a time, and handled one by one in the order they were drawn, so findings
/// and their numbering do not depend on which answer came first. It keeps the progress (inputs,
/// distinct answers, elapsed time) and stops at the settings' end, on cancellation, or when a
/// handler says why. Against an instrumented target (`traces`), an input that hits an edge or a
/// count bucket no input hit before joins the corpus, as in AFL++; the corpus then grows by at
/// most `grownLimit` inputs and `grownBytes` bytes. Against an instrumented target the mutator is
/// told which inputs paid off (new coverage), and it learns the values of the inputs kept.
struct FuzzLoop<Case: Sendable> {
    /// One drawn input: its bytes, how they were made, and the target's case for them.
    struct Input {
        var bytes: [UInt8]
        var mutations: [FrameMutation]
        var testCase: Case
        /// From 1, in the order inputs were drawn.
        var number: Int
        /// Taken as it is from another fuzzer's queue (`SyncDirectory`), not a mutant.
        var imported = false
    }

    /// What a handler says of the target after an input: whether the inputs asked beside it must
    /// be asked again (the target was restarted, so their answers say nothing of them).
    enum Aftermath {
        case undisturbed
        case restarted
    }

    let corpus: [[UInt8]]
    let settings: FuzzSettings

    /// The most inputs coverage and other fuzzers add to the corpus, and the most bytes: what a
    /// campaign keeps is bounded (AFL++'s queues of a small target stay in the hundreds to low
    /// thousands).
    static var grownLimit: Int { 20_000 }
    static var grownBytes: Int { 256 << 20 }

    /// Runs the campaign. `make` turns bytes into the target's case (nil: not an input this target
    /// can be asked about; not counted), drawing what else it needs from `random`; `attempt` asks
    /// the target, on job `job` (from 0), and may run beside other jobs; `handle` judges each
    /// answer in order, saves findings into the progress, and may stop the campaign (`stoppedBy`, `targetLost`); `answer` names
    /// the kind of answer, to count the distinct ones. `traces`, for an instrumented target, reads
    /// the coverage of job `job`'s last answer (`CoverageMap.trace(of:)`), read once a batch is
    /// answered and before any handler asks the target again. With `sync`, the corpus goes into
    /// the shared queue at the start, then every input that reached something new (new coverage,
    /// or without it a new kind of answer); the others' entries are asked as they are, and kept as
    /// coverage keeps any input (all of them, without coverage). `state` is where the campaign
    /// starts (a note said at its start).
    func run(
        make: (_ bytes: [UInt8], _ number: Int, _ random: inout SeededRandom) -> Case?,
        attempt: @escaping @Sendable (_ testCase: Case, _ job: Int) async -> CaseAttempt,
        handle: (_ input: Input, _ attempt: CaseAttempt, _ state: inout FuzzProgress, _ start: ContinuousClock.Instant) async throws(FuzzError) -> Aftermath,
        answer: (CaseAttempt) -> String,
        traces: ((_ job: Int) -> [UInt32])? = nil,
        coverage: CoverageMap? = nil,
        sync: SyncDirectory? = nil,
        from state: FuzzProgress = FuzzProgress(),
        progress: (FuzzProgress) -> Void
    ) async throws(FuzzError) -> FuzzProgress {
        guard !corpus.isEmpty else { throw .emptyCorpus }
        var mutator = FrameMutator(seed: settings.seed, options: settings.options, corpus: corpus)
        var random = SeededRandom(seed: settings.seed ^ 0x5EED_C0DE)
        var state = state
        var corpus = corpus
        var coverage = coverage
        state.edges = coverage?.edges
        // A note is said at the start, however short the campaign.
        if state.note != nil { progress(state) }
        // The other fuzzers' entries not yet asked: read again only once all are asked, so what
        // waits is at most one read's (`SyncDirectory.importLimit`, `importBytes`), however fast
        // the others queue.
        var pending: [[UInt8]] = []
        var grown = 0
        var synced = ContinuousClock.now
        if let sync {
            if sync.isNew { for entry in corpus { sync.save(entry, from: "corpus") } }
            pending = sync.imports()
        }
        var answers = Set<String>()
        let start = ContinuousClock.now
        var shown = start
        while !Task.isCancelled, !state.isStopped {
            state.elapsed = ContinuousClock.now - start
            if settings.isOver(state) { break }
            let wanted = min(settings.jobs, settings.runs.map { $0 - state.inputs } ?? .max)
            if let sync, pending.isEmpty, ContinuousClock.now - synced >= sync.interval {
                synced = .now
                pending += sync.imports()
            }
            var batch: [Input] = []
            while batch.count < wanted, !Task.isCancelled, !settings.isOver(state.after(ContinuousClock.now - start)) {
                let number = state.inputs + batch.count + 1
                if !pending.isEmpty {
                    let bytes = pending.removeFirst()
                    guard let testCase = make(bytes, number, &random) else { continue }
                    batch.append(Input(bytes: bytes, mutations: [], testCase: testCase, number: number, imported: true))
                    continue
                }
                let entry = corpus[Int.random(in: 0..<corpus.count, using: &random)]
                let donor = corpus[Int.random(in: 0..<corpus.count, using: &random)]
                let (bytes, mutations) = mutator.mutate(entry, donor: donor, number: number)
                guard let testCase = make(bytes, number, &random) else { continue }
                batch.append(Input(bytes: bytes, mutations: mutations, testCase: testCase, number: number))
            }
            var attempts = await Self.ask(batch, attempt: attempt)
            if Task.isCancelled { break }
            let hits = traces.map { traces in batch.indices.map(traces) } ?? []
            for index in batch.indices {
                state.inputs += 1
                let newAnswer = answers.insert(answer(attempts[index])).inserted
                state.distinctAnswers = answers.count
                let input = batch[index]
                if input.imported { state.imported += 1 }
                let newCoverage = coverage != nil && coverage!.merge(hits[index]) != .nothing
                state.edges = coverage?.edges
                if newCoverage || coverage == nil && input.imported, state.corpusGrowth < Self.grownLimit, grown + input.bytes.count <= Self.grownBytes {
                    corpus.append(input.bytes)
                    mutator.learn(from: input.bytes)
                    state.corpusGrowth += 1
                    grown += input.bytes.count
                }
                // Only coverage says what paid: a new kind of answer is too rare a signal (`MutationPayoff`).
                if coverage != nil { mutator.record(input.mutations, paid: newCoverage, number: input.number) }
                if !input.imported, coverage != nil ? newCoverage : newAnswer { sync?.save(input.bytes, from: coverage != nil ? "coverage" : "answer") }
                let aftermath = try await handle(batch[index], attempts[index], &state, start)
                if aftermath == .restarted {
                    for later in batch.indices.dropFirst(index + 1) { attempts[later] = await attempt(batch[later].testCase, 0) }
                }
                if Task.isCancelled || state.isStopped { break }
            }
            if ContinuousClock.now - shown >= .milliseconds(250) {
                shown = ContinuousClock.now
                state.elapsed = shown - start
                progress(state)
            }
        }
        state.elapsed = ContinuousClock.now - start
        state.interrupted = Task.isCancelled
        return state
    }

    /// The target's answers to `batch`, in its order: asked together, one job each.
    private static func ask(_ batch: [Input], attempt: @escaping @Sendable (Case, Int) async -> CaseAttempt) async -> [CaseAttempt] {
        if batch.count == 1 { return [await attempt(batch[0].testCase, 0)] }
        return await withTaskGroup(of: (Int, CaseAttempt).self) { group in
            for (job, input) in batch.enumerated() {
                let testCase = input.testCase
                group.addTask { (job, await attempt(testCase, job)) }
            }
            var answers = [CaseAttempt?](repeating: nil, count: batch.count)
            for await (job, answer) in group { answers[job] = answer }
            return answers.map { $0! }
        }
    }
}

extension FuzzProgress {
    /// The progress with `elapsed` set: to ask the settings whether the campaign is over by now.
    func after(_ elapsed: Duration) -> FuzzProgress {
        var later = self
        later.elapsed = elapsed
        return later
    }
}
