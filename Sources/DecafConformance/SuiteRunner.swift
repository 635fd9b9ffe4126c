/// Runs a suite's cases with its driver: several at once (`CaseScheduler`), each as many times as
/// asked, handing each result on as it comes. It stops early, keeping the results reached, when
/// the task is cancelled (the user's Ctrl-C), when the testee does nothing any case can judge,
/// or when the target stops answering. A case that failed while the suite itself was held up, or
/// on a wait the target timed, is run again, alone, once the others are done: its times were
/// measured on a clock the suite or the target could not keep.
package struct SuiteRunner<Driver: SuiteDriver> {
    package let driver: Driver

    /// A runner of `driver`'s cases.
    package init(driver: Driver) {
        self.driver = driver
    }

    /// The results reached, in the cases' order, and why the run stopped early.
    package struct Outcome {
        package var results: [CaseResult]
        package var stop: ConformanceRun.Stop?
        /// Why no verdict would say anything about the implementation: the run gave up on it.
        package var unusable: String?
    }

    /// Cases in a row that stalled, after which the driver checks that the target is still there.
    static var stallsBeforeCheck: Int { 3 }
    /// Cases that may end with a testee that did nothing judgeable, before any case got more,
    /// after which the run gives up on the testee.
    static var attemptsBeforeGivingUp: Int { 3 }

    package func run(_ cases: [Driver.Case], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void) async -> Outcome {
        var results: [CaseResult?] = Array(repeating: nil, count: cases.count)
        var done = 0
        var heldUp: [Int] = []
        var unusable: String?
        var lost: String?
        // Until one case shows the testee doing something judgeable, cases where it did nothing count.
        var usable = false
        var doingNothing = 0
        var stalledInARow = 0
        func finished(_ result: CaseResult, at index: Int) {
            results[index] = result
            done += 1
            progress(result, done, cases.count)
        }
        let complete = await CaseScheduler(jobs: driver.jobs).run(count: cases.count) { [driver] index in
            await Self.runRepeated(cases[index], number: index, with: driver)
        } completed: { (index: Int, attempt: CaseAttempt) -> Bool in
            if attempt.cannotStart {
                unusable = attempt.result.verdict.reason
                return false
            }
            if !usable {
                if let why = attempt.unusable {
                    doingNothing += 1
                    if doingNothing >= Self.attemptsBeforeGivingUp {
                        unusable = "\(why), in each of its first \(doingNothing) cases" + TesteeProcess.Failure.quoting(attempt.lastWords)
                        return false
                    }
                } else {
                    usable = true
                }
            }
            if attempt.isSuspect { heldUp.append(index) } else { finished(attempt.result, at: index) }
            stalledInARow = attempt.result.stalled ? stalledInARow + 1 : 0
            guard stalledInARow >= Self.stallsBeforeCheck else { return true }
            stalledInARow = 0
            guard let why = await driver.lost() else { return true }
            // A check cut short by an interruption says nothing of the target.
            if !Task.isCancelled { lost = "\(Self.stallsBeforeCheck) cases in a row timed out (the last \(attempt.result.testCase.id)), and \(why)" }
            return false
        }
        for index in heldUp.sorted() where unusable == nil && lost == nil && !Task.isCancelled {
            // Numbered after every first run: the same execution numbers would give the rerun the
            // same session, and a target that remembers repeats (REPLAY-1) would take its frames
            // for the first run's, acknowledging without delivering (no READ_RECEIPT).
            var attempt = await Self.runRepeated(cases[index], number: cases.count + index, with: driver)
            if Task.isCancelled { break }
            if attempt.isSuspect && attempt.heldTooLong {
                attempt.result.verdict.reason += "; the suite itself was held up \(DurationText.milliseconds(attempt.held, decimals: 0)) in this case, even run alone: run it on a quieter machine"
                attempt.result.heldUp = attempt.held
            }
            finished(attempt.result, at: index)
        }
        let reached = results.compactMap { $0 }
        let stop: ConformanceRun.Stop? = complete && reached.count == cases.count ? nil : lost.map { .targetLost($0) } ?? .interrupted
        return Outcome(results: reached, stop: stop, unusable: unusable)
    }

    /// Every run of `testCase` (stopping at a harness error, which a repeat would only repeat),
    /// merged into the worst, with the longest the suite was held up in any, and what the last
    /// said of the testee; the case's `number` gives each run an execution number of its own.
    private static func runRepeated(_ testCase: Driver.Case, number: Int, with driver: Driver) async -> CaseAttempt {
        let repeats = max(1, driver.repeats)
        var attempts: [CaseAttempt] = []
        for run in 0..<repeats {
            let attempt = await driver.attempt(testCase, execution: number * repeats + run)
            attempts.append(attempt)
            if attempt.result.verdict.kind == .harnessError || Task.isCancelled { break }
        }
        var merged = attempts[attempts.count - 1]
        let results = attempts.map(\.result)
        merged.result = CaseResult.merging(results)
        merged.held = attempts.map(\.held).max() ?? .zero
        merged.lateness = attempts.first { $0.result.verdict == merged.result.verdict }?.lateness ?? merged.lateness
        return merged
    }
}
