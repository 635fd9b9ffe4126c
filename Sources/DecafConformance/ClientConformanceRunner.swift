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
    /// already started, when the testee cannot be started at all or does nothing a case can
    /// judge: every verdict would say so. Stops early, keeping the verdicts reached, when the task
    /// is cancelled.
    public func run(_ cases: [ClientCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws(TesteeUnusable) -> ConformanceRun {
        let started = ContinuousClock.now
        let outcome = await SuiteRunner(driver: ClientSuiteDriver(settings: settings)).run(cases, progress: progress)
        if let unusable = outcome.unusable {
            throw TesteeUnusable(command: settings.command, reason: unusable, protocolFile: "Specs/conform-client.md")
        }
        return ConformanceRun(kind: .client, target: settings.command.joined(separator: " "), identity: nil, catalogChecksum: ClientCatalog.checksum,
                              results: outcome.results, duration: ContinuousClock.now - started, planned: cases.count, stop: outcome.stop)
    }
}

/// How the client suite runs a case once, as BoringSSL's BoGo runner does: a scripted server of
/// the case's own on a loopback port, the testee started with that address, its `ClientCaseDriver`
/// on one of the suite's event loops, and the `ClientJudge` on what it observed.
struct ClientSuiteDriver: SuiteDriver {
    let settings: ClientRunSettings

    var jobs: Int { settings.jobs }
    var repeats: Int { settings.repeats }

    static let cannotStart = "the testee cannot be started"

    /// Event loops of the client suite's own, for as long as the process lives: starting testees
    /// and reading their output must not hold up the process's other NIO users.
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)

    /// Runs `testCase` once: its own listener, its own testee.
    func attempt(_ testCase: ClientCase, execution: Int) async -> CaseAttempt {
        let started = ContinuousClock.now
        let eventLoop = Self.group.next()
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
            return CaseAttempt(result: CaseResult(testCase: testCase.conformanceCase, verdict: Verdict(.harnessError, "the case could not run: \(error)"),
                                                  transcript: [], duration: ContinuousClock.now - started))
        }
        let verdict = result.problem.map { Verdict(.harnessError, $0) } ?? ClientJudge(testCase: testCase, observation: result.observation).verdict
        return CaseAttempt(result: CaseResult(testCase: testCase.conformanceCase, verdict: verdict, transcript: result.transcript, duration: ContinuousClock.now - started),
                           held: result.held, unusable: Self.unusable(result.observation, verdict: verdict),
                           cannotStart: verdict.kind == .harnessError && verdict.reason.hasPrefix(Self.cannotStart))
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
