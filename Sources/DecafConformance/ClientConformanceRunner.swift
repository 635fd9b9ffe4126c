import DecafNIO
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
    public func run(_ cases: [ClientCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws(TesteeUnusable) -> ConformanceRun {
        let started = ContinuousClock.now
        let group = Self.group
        var results: [CaseResult?] = Array(repeating: nil, count: cases.count)
        var unusable: String?
        var heldUp: [Int] = []
        var done = 0
        func finished(_ result: CaseResult, at index: Int) {
            results[index] = result
            done += 1
            if result.verdict.kind == .harnessError, result.verdict.reason.hasPrefix(Self.cannotStart) { unusable = result.verdict.reason }
            progress(result, done, cases.count)
        }
        await withTaskGroup(of: (Int, Attempt).self) { tasks in
            var next = 0
            func launch() {
                guard next < cases.count, unusable == nil else { return }
                let index = next
                next += 1
                tasks.addTask { (index, await runRepeated(cases[index], on: group)) }
            }
            for _ in 0..<max(1, settings.jobs) { launch() }
            for await (index, attempt) in tasks {
                if attempt.isSuspect {
                    heldUp.append(index)
                } else {
                    finished(attempt.result, at: index)
                }
                launch()
            }
        }
        for index in heldUp.sorted() where unusable == nil {
            var attempt = await runRepeated(cases[index], on: group)
            if attempt.isSuspect {
                attempt.result.verdict.reason += "; the suite itself was held up \(ClientJudge.text(attempt.held)) in this case, even run alone: run it on a quieter machine"
            }
            finished(attempt.result, at: index)
        }
        if let unusable {
            throw TesteeUnusable(command: settings.command, reason: String(unusable.dropFirst("the testee ".count)), protocolFile: "Specs/conform-client.md")
        }
        return ConformanceRun(kind: .client, target: settings.command.joined(separator: " "), identity: nil, catalogChecksum: ClientCatalog.checksum,
                              results: results.compactMap { $0 }, duration: ContinuousClock.now - started)
    }

    static let cannotStart = "the testee cannot be started"

    /// Event loops of the client suite's own, for as long as the process lives: starting testees
    /// and reading their output must not hold up the process's other NIO users.
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)

    /// A case's result, and the longest its event loop ran late.
    private struct Attempt {
        var result: CaseResult
        var held: Duration

        /// A verdict short of a pass, reached while the suite could not keep its own time.
        var isSuspect: Bool {
            let kind = result.verdict.kind
            return (kind.isFailure || kind == .passNonStrict) && held > TimingTolerance.early
        }
    }

    private func runRepeated(_ testCase: ClientCase, on group: EventLoopGroup) async -> Attempt {
        var runs: [CaseResult] = []
        var held = Duration.zero
        for _ in 0..<max(1, settings.repeats) {
            let (result, runHeld) = await attempt(testCase, on: group.next())
            runs.append(result)
            held = max(held, runHeld)
            if result.verdict.kind == .harnessError { break }
        }
        return Attempt(result: CaseResult.merging(runs), held: held)
    }

    /// Runs `testCase` once: its own listener, its own testee.
    private func attempt(_ testCase: ClientCase, on eventLoop: EventLoop) async -> (result: CaseResult, held: Duration) {
        let started = ContinuousClock.now
        let outcome = eventLoop.makePromise(of: ClientCaseOutcome.self)
        let settings = settings
        eventLoop.execute {
            ClientCaseDriver(testCase: testCase, settings: settings, eventLoop: eventLoop, outcome: outcome).start()
        }
        let result: ClientCaseOutcome
        do {
            result = try await outcome.futureResult.get()
        } catch {
            return (CaseResult(testCase: testCase.conformanceCase, verdict: Verdict(.harnessError, "the case could not run: \(error)"),
                               transcript: [], duration: ContinuousClock.now - started), .zero)
        }
        let verdict = result.problem.map { Verdict(.harnessError, $0) } ?? ClientJudge(testCase: testCase, observation: result.observation).verdict
        return (CaseResult(testCase: testCase.conformanceCase, verdict: verdict, transcript: result.transcript, duration: ContinuousClock.now - started),
                result.held)
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
