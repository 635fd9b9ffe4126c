import DecafDiagnosis
/// Runs codec cases against a testee process (`decaf conform decoder -- COMMAND`): each request
/// carries a case's bytes to decode or fields to encode; each answer is judged against the vector.
/// A testee that crashes or hangs fails that case and is started again for the next.
public struct DecoderConformanceRunner: Sendable {
    public let command: [String]
    /// The longest wait for one answer.
    public var timeout: Duration = .seconds(5)
    public var repeats = 1

    public init(command: [String]) {
        self.command = command
    }

    /// Runs `cases` in order, one at a time on the run's one testee. Throws when the testee is not
    /// usable at all: it cannot be started, or it answers none of the first requests (it ends, it
    /// is silent, it prints what is not the protocol's JSON); then no verdict would say anything
    /// about the codec. Stops early, keeping the verdicts reached, when the task is cancelled: a
    /// testee's answer awaited then is given up within a tenth of a second.
    /// The codec suite's own thread for its tasks, for as long as the process lives.
    private static let executor = ThreadExecutor(name: "decaf codec suite")

    public func run(_ cases: [CodecCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws(TesteeUnusable) -> ConformanceRun {
        let started = ContinuousClock.now
        let driver = DecoderSuiteDriver(command: command, timeout: timeout, repeats: repeats)
        defer { driver.stop() }
        let outcome = await withTaskExecutorPreference(Self.executor) {
            await SuiteRunner(driver: driver).run(cases, progress: progress)
        }
        if let unusable = outcome.unusable { throw TesteeUnusable(command: command, reason: unusable) }
        var results = outcome.results
        let irregularities = driver.irregularities
        if irregularities.unrequestedBytes > 0 {
            // An answer given twice may have come late enough to be read as the next request's:
            // each case that did not pass is asked again of a testee started for it alone.
            for index in results.indices where results[index].verdict.kind.isFailure && !Task.isCancelled {
                guard let codecCase = cases.first(where: { $0.id == results[index].testCase.id }) else { continue }
                results[index] = await withTaskExecutorPreference(Self.executor) { await driver.attempt(codecCase, waiting: timeout, alone: true) }.result
            }
        }
        if !irregularities.isEmpty { results.append(Self.testeeProtocol(irregularities)) }
        var run = ConformanceRun(kind: .decoder, target: command.joined(separator: " "), identity: nil, catalogChecksum: CodecCase.checksum,
                                 results: results, duration: ContinuousClock.now - started, planned: cases.count + (irregularities.isEmpty ? 0 : 1), stop: outcome.stop)
        await withTaskExecutorPreference(Self.executor) { run.diagnose { CodecDiagnosis.diagnose(cases: cases, results: $0.results) } }
        return run
    }

    /// The failure, of its own, of a testee that wrote what no request asked for or exited between
    /// requests: each case was judged on its own answer, so none carries it.
    static func testeeProtocol(_ irregularities: TesteeIrregularities) -> CaseResult {
        let testCase = ConformanceCase("codec.testee-protocol", [], .required,
                                       "the testee answers each request once, only when asked, until its input ends (Specs/conform-testee.md)", steps: [])
        return CaseResult(testCase: testCase, verdict: Verdict(.fail, irregularities.description), transcript: [], duration: .zero)
    }
}
