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
    /// The verdict rests on a wait the target timed on its own clock (a resend, a reconnect, a
    /// prompt ACK): a target held up on a loaded machine looks early or late to a suite that kept
    /// time, so a failure of it is run again alone before it stands.
    package var targetTimed: Bool
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
    package init(result: CaseResult, held: Duration = .zero, lateness: Duration? = TimingTolerance.early, targetTimed: Bool = false,
                 unusable: String? = nil, lastWords: String = "", cannotStart: Bool = false, irregularities: TesteeIrregularities = TesteeIrregularities()) {
        self.result = result
        self.held = held
        self.lateness = lateness
        self.targetTimed = targetTimed
        self.unusable = unusable
        self.lastWords = lastWords
        self.cannotStart = cannotStart
        self.irregularities = irregularities
    }

    /// A verdict short of a pass that a loaded machine may have given: reached while the suite ran
    /// later than the verdict tolerates (the answers may have come later than the testee's timers
    /// allowed), or resting on the target's own timing. A failure that breaks a MUST whatever the
    /// case (the testee's own bytes, a crash) stands.
    package var isSuspect: Bool {
        let kind = result.verdict.kind
        return !result.verdict.breaksMust && (kind.isFailure || kind == .passNonStrict) && (heldTooLong || targetTimed)
    }

    /// Whether the suite ran later than the verdict tolerates.
    package var heldTooLong: Bool {
        lateness.map { held > $0 } ?? false
    }
}
