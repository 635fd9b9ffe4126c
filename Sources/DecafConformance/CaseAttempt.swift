/// What one run of a case gave its suite's runner: the result, and what the runner decides on
/// beyond the verdict.
struct CaseAttempt: Sendable {
    var result: CaseResult
    /// The longest the suite's own event loop ran late during the case.
    var held: Duration = .zero
    /// What the testee did instead of anything a case can judge (it printed what is not an event,
    /// never connected, never answered), when that is so.
    var unusable: String?
    /// The last line of the testee's standard error, quoted after why it is unusable ("" if none).
    var lastWords = ""
    /// The testee cannot be started at all: every verdict would say so, so the run stops.
    var cannotStart = false

    /// A verdict short of a pass, reached while the suite could not keep its own time: its answers
    /// may have come later than the testee's timers allowed, whatever the case checks. A failure
    /// that breaks a MUST whatever the case (the testee's own bytes, a crash) stands.
    var isSuspect: Bool {
        let kind = result.verdict.kind
        return !result.verdict.breaksMust && (kind.isFailure || kind == .passNonStrict) && held > TimingTolerance.early
    }
}
