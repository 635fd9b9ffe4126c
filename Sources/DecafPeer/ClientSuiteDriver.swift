import DecafConformance
import DecafNIO
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix

/// How the client suite runs a case once, as BoringSSL's BoGo runner does: a scripted server of
/// the case's own on a loopback port, the testee started with that address, its `ClientCaseDriver`
/// on one of the suite's event loops, and the `ClientJudge` on what it observed.
struct ClientSuiteDriver: SuiteDriver {
    let settings: ClientRunSettings
    /// Where the scripted servers record their connections, when they do.
    let pcap: NIOWritePCAPHandler.SynchronizedFileSink?

    package var jobs: Int { settings.jobs }
    package var repeats: Int { settings.repeats }

    static let cannotStart = "the testee cannot be started"

    /// Event loops of the client suite's own, for as long as the process lives: starting testees
    /// and reading their output must not hold up the process's other NIO users.
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)

    /// Runs `testCase` once: its own listener, its own testee.
    package func attempt(_ testCase: ClientCase, execution: Int) async -> CaseAttempt {
        await attempt(testCase, execution: execution, in: nil)
    }

    /// Runs `testCase` once: in `session`, on the testee it keeps when it can, else on a listener
    /// and a testee of its own (which the session then keeps).
    func attempt(_ testCase: ClientCase, execution: Int, in session: ClientTesteeSession?) async -> CaseAttempt {
        let started = ContinuousClock.now
        let kept = session?.current
        let eventLoop = kept?.eventLoop ?? Self.group.next()
        let outcome = eventLoop.makePromise(of: ClientCaseOutcome.self)
        let settings = settings
        let pcap = pcap
        let driver = NIOLockedValueBox<NIOLoopBound<ClientCaseDriver>?>(nil)
        eventLoop.execute {
            if let kept, kept.driver.value.next(testCase, outcome: outcome) {
                driver.withLockedValue { $0 = kept.driver }
                session?.asked(testCase)
                return
            }
            kept?.driver.value.retire()
            let started = ClientCaseDriver(testCase: testCase, settings: settings, pcap: pcap, eventLoop: eventLoop, outcome: outcome, keepsTestee: session != nil)
            driver.withLockedValue { $0 = NIOLoopBound(started, eventLoop: eventLoop) }
            session?.keep(started, on: eventLoop, for: testCase)
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
                           held: result.held, targetTimed: testCase.check.isTimed, unusable: Self.unusable(result.observation, verdict: verdict), lastWords: result.observation.lastWords,
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
