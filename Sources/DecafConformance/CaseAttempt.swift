/// What one run of a case gave its suite's runner: the result, and what the runner decides on
/// beyond the verdict.
public struct CaseAttempt: Sendable {
    public package(set) var result: CaseResult
    /// The longest the suite's own event loop ran late during the case.
    package var held: Duration
    /// How late the suite may run before the verdict says more of it than of the testee: the
    /// timing tolerance for a verdict on time (every client case's), a longer share of the wait
    /// for a timeout; nil for a verdict that does not depend on the suite's clock.
    package var lateness: Duration?
    /// What the testee did instead of anything a case can judge (it printed what is not an event,
    /// never connected, never answered), when that is so.
    public package(set) var unusable: String?
    /// The last line of the testee's standard error, quoted after why it is unusable ("" if none).
    public package(set) var lastWords: String
    /// The testee cannot be started at all: every verdict would say so, so the run stops.
    public package(set) var cannotStart: Bool
    /// What a codec testee did around this request besides answering it.
    public package(set) var irregularities: TesteeIrregularities

    /// An attempt with `result` and what the runner decides on beyond it.
    package init(result: CaseResult, held: Duration = .zero, lateness: Duration? = TimingTolerance.early, unusable: String? = nil,
                 lastWords: String = "", cannotStart: Bool = false, irregularities: TesteeIrregularities = TesteeIrregularities()) {
        self.result = result
        self.held = held
        self.lateness = lateness
        self.unusable = unusable
        self.lastWords = lastWords
        self.cannotStart = cannotStart
        self.irregularities = irregularities
    }

    /// A verdict short of a pass, reached while the suite ran later than the verdict tolerates:
    /// the answers may have come later than the testee's timers allowed. A failure that breaks a
    /// MUST whatever the case (the testee's own bytes, a crash) stands.
    package var isSuspect: Bool {
        let kind = result.verdict.kind
        guard let lateness else { return false }
        return !result.verdict.breaksMust && (kind.isFailure || kind == .passNonStrict) && held > lateness
    }
}
