@testable import DecafConformance
@testable import DecafFuzz
import Synchronization
import Testing

/// The loop every campaign runs: the same seed gives the same inputs whatever the jobs, answers
/// are handled in the order the inputs were drawn, and a restart has the inputs asked beside the
/// one that caused it asked again.
@Suite("the fuzz loop")
struct FuzzLoopTests {
    static let corpus = [ServerCaseTests.frame(.data), ServerCaseTests.frame(.control), ServerCaseTests.frame(.heartbeat, fields: [])]

    static func attempt(_ bytes: [UInt8]) -> CaseAttempt {
        CaseAttempt(result: CaseResult(testCase: ConformanceCase("fuzz", [], .required, "", steps: []), verdict: Verdict(.pass, "\(bytes.count)"),
                                       transcript: [], duration: .zero))
    }

    /// The inputs a loop of `jobs` jobs handles, in order, with the job each was asked on.
    static func handled(jobs: Int, runs: Int = 40, restartAt: Int? = nil) async throws -> (inputs: [[UInt8]], asked: Int) {
        let loop = FuzzLoop<[UInt8]>(corpus: corpus, settings: FuzzSettings(seed: 11, runs: runs, jobs: jobs))
        var inputs: [[UInt8]] = []
        let asked = Mutex(0)
        let state = try await loop.run(
            make: { bytes, _, _ in bytes },
            attempt: { bytes, job in
                #expect(job < jobs)
                asked.withLock { $0 += 1 }
                await Task.yield()
                return attempt(bytes)
            },
            handle: { input, attempt, _, _ in
                #expect(attempt.result.verdict.reason == "\(input.bytes.count)", "each answer goes with its own input")
                #expect(input.number == inputs.count + 1)
                inputs.append(input.bytes)
                return input.number == restartAt ? .restarted : .undisturbed
            },
            answer: { _ in "" }, progress: { _ in })
        #expect(state.inputs == runs)
        return (inputs, asked.withLock { $0 })
    }

    @Test("the same seed gives the same inputs, in the same order, with one job or several")
    func sameInputs() async throws {
        let one = try await Self.handled(jobs: 1)
        let three = try await Self.handled(jobs: 3)
        #expect(one.inputs.count == 40)
        #expect(one.inputs == three.inputs)
        #expect(one.asked == 40 && three.asked == 40)
    }

    @Test("after a restart the inputs asked beside the one that caused it are asked again")
    func restart() async throws {
        // Input 4 is the first of the second batch of three: 5 and 6 are asked again.
        let run = try await Self.handled(jobs: 3, runs: 9, restartAt: 4)
        #expect(run.asked == 11)
    }

    @Test("an empty corpus is an error, not a loop")
    func emptyCorpus() async {
        await #expect(throws: FuzzError.self) {
            _ = try await FuzzLoop<[UInt8]>(corpus: [], settings: FuzzSettings(runs: 1)).run(
                make: { bytes, _, _ in bytes }, attempt: { bytes, _ in Self.attempt(bytes) }, handle: { _, _, _, _ in .undisturbed },
                answer: { _ in "" }, progress: { _ in })
        }
    }
}
