/// One suite's driver: how the server, client and codec suites each run one case once. The one
/// protocol they share, so one mechanism (`SuiteRunner`) gives every suite its concurrency, its
/// repeats, its stop on interruption or on a target that is gone, and its report. A driver only
/// moves bytes and keeps deadlines; a pure judge decides (`ServerJudge`, `ClientJudge`,
/// `CodecJudge`).
package protocol SuiteDriver: Sendable {
    associatedtype Case: Sendable
    /// Cases run at once.
    var jobs: Int { get }
    /// Runs of every case; more than one finds flaky cases.
    var repeats: Int { get }
    /// Runs `testCase` once, as the run's `execution`-th execution (from 0). Every wait on the
    /// target has a deadline, so it returns within the case's bound whatever the target does, and
    /// soon after its task is cancelled (that result is dropped).
    func attempt(_ testCase: Case, execution: Int) async -> CaseAttempt
    /// Called after `SuiteRunner.stallsBeforeCheck` cases in a row stalled: why the target is
    /// gone, or nil when it still answers.
    func lost() async -> String?
}

extension SuiteDriver {
    package func lost() async -> String? { nil }
}
