import DecafNIO

/// What running one case gave: its verdict, the bytes exchanged both ways, and, when the case ran
/// several times (`--repeat`), the verdict of every run.
public struct CaseResult: Sendable {
    public var testCase: ConformanceCase
    public var verdict: Verdict
    public var transcript: [TranscriptEntry]
    public var duration: Duration
    /// The kind of every run, in order; one entry unless the case was repeated.
    public var runs: [VerdictKind]
    /// How long the suite itself was held up in this case, when its verdict depends on the
    /// suite's clock and it was held up too long even run alone (a loaded machine): the verdict
    /// says more of the machine than of the target. Nil otherwise.
    public var heldUp: Duration?

    public init(testCase: ConformanceCase, verdict: Verdict, transcript: [TranscriptEntry], duration: Duration, runs: [VerdictKind]? = nil) {
        self.testCase = testCase
        self.verdict = verdict
        self.transcript = transcript
        self.duration = duration
        self.runs = runs ?? [verdict.kind]
    }

    /// Whether a failure of this case decides the exit status: the case is required, or the
    /// failure broke a MUST whatever the case was about.
    public var countsAsRequired: Bool { testCase.level == .required || verdict.breaksMust }

    /// The case's level as reports show it: `recommended; breaks a MUST` when the failure counts
    /// as required all the same.
    public var levelLabel: String {
        testCase.level != .required && verdict.kind.isFailure && verdict.breaksMust ? "\(testCase.level.rawValue); breaks a MUST" : testCase.level.rawValue
    }

    /// Whether repeated runs disagreed.
    public var isFlaky: Bool { Set(runs).count > 1 }

    /// The worst of several runs of the same case, with every run's kind.
    static func merging(_ results: [CaseResult]) -> CaseResult {
        var worst = results.max { $0.verdict.kind.severity < $1.verdict.kind.severity }!
        worst.runs = results.map(\.verdict.kind)
        return worst
    }
}

extension CaseResult {
    /// Whether the case timed out, or could not connect: what a target that stopped answering, or
    /// answers too slowly to test, looks like.
    var stalled: Bool {
        verdict.kind == .timeout || (verdict.kind == .harnessError && verdict.reason.hasPrefix("cannot connect"))
    }
}
