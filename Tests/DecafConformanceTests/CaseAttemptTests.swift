@testable import DecafConformance
import Synchronization
import Testing

/// Which failures are run again alone: those reached while the suite ran later than the verdict
/// tolerates, and those on a wait the target timed.
@Suite("case attempts")
struct CaseAttemptTests {
    static func attempt(_ kind: VerdictKind, held: Duration, lateness: Duration?, breaksMust: Bool = false, targetTimed: Bool = false) -> CaseAttempt {
        let testCase = ConformanceCase("test.case", [.ex1], .required, "a case", steps: [])
        let result = CaseResult(testCase: testCase, verdict: Verdict(kind, "why", breaksMust: breaksMust), transcript: [], duration: .zero)
        return CaseAttempt(result: result, held: held, lateness: lateness, targetTimed: targetTimed)
    }

    @Test("a failure is suspect only when the suite ran later than the verdict tolerates; a pass, a MUST broken whatever the case, or a verdict not on time stands")
    func suspects() {
        #expect(Self.attempt(.fail, held: .milliseconds(100), lateness: TimingTolerance.early).isSuspect)
        #expect(!Self.attempt(.fail, held: .milliseconds(50), lateness: TimingTolerance.early).isSuspect)
        #expect(!Self.attempt(.timeout, held: .milliseconds(600), lateness: .seconds(1)).isSuspect)
        #expect(Self.attempt(.timeout, held: .milliseconds(1500), lateness: .seconds(1)).isSuspect)
        #expect(!Self.attempt(.fail, held: .seconds(5), lateness: nil).isSuspect)
        #expect(!Self.attempt(.pass, held: .seconds(5), lateness: TimingTolerance.early).isSuspect)
        #expect(!Self.attempt(.fail, held: .seconds(5), lateness: TimingTolerance.early, breaksMust: true).isSuspect)
    }

    @Test("a failure on a wait the target timed is suspect however punctual the suite was; its pass, or a MUST it broke, stands")
    func targetTimedSuspects() {
        #expect(Self.attempt(.fail, held: .zero, lateness: TimingTolerance.early, targetTimed: true).isSuspect)
        #expect(!Self.attempt(.fail, held: .zero, lateness: TimingTolerance.early).isSuspect)
        #expect(!Self.attempt(.pass, held: .zero, lateness: TimingTolerance.early, targetTimed: true).isSuspect)
        #expect(!Self.attempt(.fail, held: .zero, lateness: TimingTolerance.early, breaksMust: true, targetTimed: true).isSuspect)
        #expect(ClientCheck.resend(.afterTimeout).isTimed && ClientCheck.heartbeats.isTimed && !ClientCheck.givesUp(.sendCount).isTimed)
    }

    /// A driver whose target, timing its own waits, fails each case's first `failures` attempts
    /// and passes the rest, though the suite is never held up.
    struct TargetTimedDriver: SuiteDriver {
        final class Attempts: Sendable {
            let ids = Mutex<[String]>([])
        }

        let jobs = 2
        let repeats = 1
        let failures: Int
        let attempts = Attempts()

        func attempt(_ testCase: ConformanceCase, execution: Int) async -> CaseAttempt {
            let earlier = attempts.ids.withLock { ids in
                defer { ids.append(testCase.id) }
                return ids.count { $0 == testCase.id }
            }
            return CaseAttemptTests.attempt(earlier < failures ? .fail : .pass, held: .zero, lateness: TimingTolerance.early, targetTimed: true)
        }
    }

    @Test("a failure on the target's own timing is run again alone: a pass alone stands, and so does a failure alone, with no word of the suite held up")
    func targetTimedRerun() async {
        let cases = (0..<2).map { ConformanceCase("test.case.\($0)", [.ex1], .required, "a case", steps: []) }
        let flaky = await SuiteRunner(driver: TargetTimedDriver(failures: 1)).run(cases) { _, _, _ in }
        #expect(flaky.results.map(\.verdict.kind) == [.pass, .pass])
        let early = TargetTimedDriver(failures: 2)
        let broken = await SuiteRunner(driver: early).run(cases) { _, _, _ in }
        #expect(broken.results.map(\.verdict.kind) == [.fail, .fail])
        #expect(broken.results.allSatisfy { $0.verdict.reason == "why" && $0.heldUp == nil })
        #expect(early.attempts.ids.withLock { $0.count } == 4)
    }

    /// A driver whose first attempt at every case is held up and fails; it records the execution
    /// number of every attempt.
    struct HeldUpDriver: SuiteDriver {
        final class Executions: Sendable {
            let numbers = Mutex<[Int]>([])
        }

        let jobs = 2
        let repeats = 1
        let executions = Executions()

        func attempt(_ testCase: ConformanceCase, execution: Int) async -> CaseAttempt {
            let first = executions.numbers.withLock { seen in
                defer { seen.append(execution) }
                return seen.count < 3
            }
            return CaseAttemptTests.attempt(first ? .fail : .pass, held: first ? .seconds(1) : .zero, lateness: TimingTolerance.early)
        }
    }

    @Test("a case run again alone gets execution numbers of its own, so its frames carry a session no earlier run used")
    func rerunsAreNewExecutions() async {
        let driver = HeldUpDriver()
        let cases = (0..<3).map { ConformanceCase("test.case.\($0)", [.ex1], .required, "a case", steps: []) }
        let outcome = await SuiteRunner(driver: driver).run(cases) { _, _, _ in }
        let executions = driver.executions.numbers.withLock { $0 }
        #expect(outcome.results.map(\.verdict.kind) == [.pass, .pass, .pass])
        #expect(executions.count == 6)
        #expect(Set(executions).count == executions.count, "\(executions)")
        #expect(Set(executions.map { ServerSuiteDriver.session(ofExecution: $0) }).count == executions.count)
    }
}
