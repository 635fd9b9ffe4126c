import DecafNIO
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Runs client cases, as BoringSSL's BoGo runner does: for each case a scripted server listens on
/// a loopback port of its own, and the testee is started with that address in its environment.
/// Cases run several at once, so the waits of timing cases do not add up.
public struct ClientConformanceRunner: Sendable {
    public let settings: ClientRunSettings

    public init(settings: ClientRunSettings) {
        self.settings = settings
        // A write to a testee that died must fail with EPIPE, not kill the suite.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs `cases` and reports each result to `progress` as it completes. A case that failed
    /// while the suite's own event loop was held up is run again, alone, once the others are done:
    /// its times were measured on a clock the suite could not keep. Throws, after the cases
    /// already started, when the testee cannot be started at all: every verdict would say so.
    /// Stops early, keeping the verdicts reached, when the task is cancelled.
    public func run(_ cases: [ClientCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws(TesteeUnusable) -> ConformanceRun {
        let started = ContinuousClock.now
        let group = Self.group
        var results: [CaseResult?] = Array(repeating: nil, count: cases.count)
        var unusable: String?
        var heldUp: [Int] = []
        var done = 0
        // Until one case shows the testee doing something judgeable, cases where it did nothing count.
        var usable = false
        var doingNothing = 0
        func finished(_ result: CaseResult, at index: Int) {
            results[index] = result
            done += 1
            if result.verdict.kind == .harnessError, result.verdict.reason.hasPrefix(Self.cannotStart) { unusable = result.verdict.reason }
            progress(result, done, cases.count)
        }
        await CaseScheduler(jobs: settings.jobs).run(count: cases.count) { index in
            await runRepeated(cases[index], on: group)
        } completed: { (index: Int, attempt: Attempt) -> Bool in
            if !usable {
                if let why = attempt.unusable {
                    doingNothing += 1
                    if doingNothing >= Self.attemptsBeforeGivingUp {
                        unusable = "\(why), in each of its first \(doingNothing) cases"
                        return false
                    }
                } else {
                    usable = true
                }
            }
            if attempt.isSuspect {
                heldUp.append(index)
            } else {
                finished(attempt.result, at: index)
            }
            return unusable == nil
        }
        for index in heldUp.sorted() where unusable == nil && !Task.isCancelled {
            var attempt = await runRepeated(cases[index], on: group)
            if Task.isCancelled { break }
            if attempt.isSuspect {
                attempt.result.verdict.reason += "; the suite itself was held up \(ClientJudge.text(attempt.held)) in this case, even run alone: run it on a quieter machine"
            }
            finished(attempt.result, at: index)
        }
        if let unusable {
            throw TesteeUnusable(command: settings.command, reason: unusable.hasPrefix("the testee ") ? String(unusable.dropFirst("the testee ".count)) : unusable,
                                 protocolFile: "Specs/conform-client.md")
        }
        let reached = results.compactMap { $0 }
        return ConformanceRun(kind: .client, target: settings.command.joined(separator: " "), identity: nil, catalogChecksum: ClientCatalog.checksum,
                              results: reached, duration: ContinuousClock.now - started, planned: cases.count,
                              stop: reached.count < cases.count ? .interrupted : nil)
    }

    static let cannotStart = "the testee cannot be started"

    /// Event loops of the client suite's own, for as long as the process lives: starting testees
    /// and reading their output must not hold up the process's other NIO users.
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)

    /// A case's result, the longest its event loop ran late, and, when the testee did nothing a
    /// case could judge (it printed nothing and never connected, or printed what is not an
    /// event), what it did instead.
    private struct Attempt {
        var result: CaseResult
        var held: Duration
        var unusable: String?

        /// A verdict short of a pass, reached while the suite could not keep its own time: its
        /// answers may have come later than the client's timers allowed, whatever the case checks.
        /// A failure that breaks a MUST whatever the case (the client's own bytes, a crash) stands,
        /// and is not run again.
        var isSuspect: Bool {
            let kind = result.verdict.kind
            return !result.verdict.breaksMust && (kind.isFailure || kind == .passNonStrict) && held > TimingTolerance.early
        }
    }

    private func runRepeated(_ testCase: ClientCase, on group: EventLoopGroup) async -> Attempt {
        var runs: [CaseResult] = []
        var held = Duration.zero
        var unusable: String?
        for _ in 0..<max(1, settings.repeats) {
            let (result, runHeld, runUnusable) = await attempt(testCase, on: group.next())
            runs.append(result)
            held = max(held, runHeld)
            unusable = runUnusable
            if result.verdict.kind == .harnessError { break }
        }
        return Attempt(result: CaseResult.merging(runs), held: held, unusable: unusable)
    }

    /// Runs `testCase` once: its own listener, its own testee.
    private func attempt(_ testCase: ClientCase, on eventLoop: EventLoop) async -> (result: CaseResult, held: Duration, unusable: String?) {
        let started = ContinuousClock.now
        let outcome = eventLoop.makePromise(of: ClientCaseOutcome.self)
        let settings = settings
        let driver = NIOLockedValueBox<NIOLoopBound<ClientCaseDriver>?>(nil)
        eventLoop.execute {
            let started = ClientCaseDriver(testCase: testCase, settings: settings, eventLoop: eventLoop, outcome: outcome)
            driver.withLockedValue { $0 = NIOLoopBound(started, eventLoop: eventLoop) }
            started.start()
        }
        let result: ClientCaseOutcome
        do {
            result = try await withTaskCancellationHandler {
                try await outcome.futureResult.get()
            } onCancel: {
                eventLoop.execute { driver.withLockedValue { $0 }?.value.interrupt() }
            }
        } catch {
            return (CaseResult(testCase: testCase.conformanceCase, verdict: Verdict(.harnessError, "the case could not run: \(error)"),
                               transcript: [], duration: ContinuousClock.now - started), .zero, nil)
        }
        let verdict = result.problem.map { Verdict(.harnessError, $0) } ?? ClientJudge(testCase: testCase, observation: result.observation).verdict
        return (CaseResult(testCase: testCase.conformanceCase, verdict: verdict, transcript: result.transcript, duration: ContinuousClock.now - started),
                result.held, Self.unusable(result.observation, verdict: verdict))
    }

    /// What a testee did instead of anything a case can judge, when that is so: it printed what is
    /// not an event, or it never connected (exiting, or not, in the case's time) and printed no
    /// event but `ready`.
    private static func unusable(_ observation: ClientObservation, verdict: Verdict) -> String? {
        if let garbage = observation.garbage {
            return "printed something that is not an event of the protocol: '\(garbage.prefix(80))'"
        }
        guard verdict.kind != .unsupported, observation.connections.isEmpty, observation.reports.allSatisfy({ $0.event.name == "ready" }) else { return nil }
        return (observation.reports.isEmpty ? "printed no event and " : "") + "never connected to the suite's server (\(verdict.reason))"
    }

    /// Cases that may end with a testee that did nothing judgeable, before any case got more,
    /// after which the run gives up on the testee.
    static let attemptsBeforeGivingUp = 3
}

/// What one run of a client case gave the judge: the observation and the transcript, or the
/// suite's own problem (no port to listen on) that stopped the case.
struct ClientCaseOutcome: Sendable {
    var observation: ClientObservation
    var transcript: [TranscriptEntry]
    var problem: String?
    /// The longest the case's event loop ran late.
    var held: Duration = .zero
}
