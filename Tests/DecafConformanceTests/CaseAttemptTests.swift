@testable import DecafConformance
import Testing

/// Which failures are run again alone: those reached while the suite ran later than the verdict
/// tolerates.
@Suite("case attempts")
struct CaseAttemptTests {
    static func attempt(_ kind: VerdictKind, held: Duration, lateness: Duration?, breaksMust: Bool = false) -> CaseAttempt {
        let testCase = ConformanceCase("test.case", [.ex1], .required, "a case", steps: [])
        let result = CaseResult(testCase: testCase, verdict: Verdict(kind, "why", breaksMust: breaksMust), transcript: [], duration: .zero)
        return CaseAttempt(result: result, held: held, lateness: lateness)
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
}
