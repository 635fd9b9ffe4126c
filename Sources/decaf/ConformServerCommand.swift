import ArgumentParser
import DecafConformance
import DecafDissect
import DecafPeer
#if canImport(Glibc)
import Glibc
#endif

/// `decaf conform server HOST:PORT`: runs the catalog against a server, each case on its own
/// connection.
struct ConformServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the conformance cases against a server.",
        discussion: """
            Every wait on the server has the deadline --timeout (connecting, each write, each answer), so a case ends within \
            (2 x its steps + 2) x --timeout. Against a target that is not a Decaf server, or answers nothing, no case runs: \
            one paragraph says what answered instead (HTTP, TLS, an SSH banner, a close, a reset, silence, a frame begun \
            and never finished), within 4 x --timeout. When three cases in a row time out and a fresh handshake fails too, \
            the run stops there (STOPPED). Ctrl-C stops the run: the verdicts reached are printed, marked INTERRUPTED, and \
            the reports asked for are written, marked incomplete. Memory: of each connection Decaf keeps at most 4 MiB of the server's frames not yet judged (then it reads no more \
            until they are) and a transcript of its first and last 256 KiB, whatever the server sends; --jobs \
            connections at once.
            The report opens with a diagnosis: the smallest set of the reference peer's faults and codec mistakes \
            (decaf peer --list-faults, decaf testee decoder --list-mistakes) whose peer, judged in memory with the \
            target's version, features and these options, gets the very verdicts the server got, each named once as a \
            defect with the failures it explains, the shortest as evidence, and the fix; failures none explains follow as \
            cases (--verbose: every case).
            Exit status: 0 every required case passed, 1 failures, 2 usage or harness error, or a target that cannot be \
            tested, 3 nothing ran, 130 interrupted.
            """
    )

    @Argument(help: ArgumentHelp("The server under test, HOST:PORT.", valueName: "host:port"), transform: Endpoint.server)
    var server: Endpoint

    @OptionGroup var target: TargetProfileOptions
    @OptionGroup var filter: CaseFilterOptions
    @OptionGroup var files: ReportFiles
    @OptionGroup var report: ReportOptions

    @Option(help: ArgumentHelp("How long to wait for anything the server must do, per expectation. (default: 2s)", valueName: "duration"), transform: DurationArgument.positive)
    var timeout = ServerRunSettings.defaultTimeout

    @Option(help: ArgumentHelp("Cases to run at once, each on its own connection. (default: 4)", valueName: "n"), transform: IntegerArgument.within(1...256))
    var jobs = 4

    func run() async throws {
        let signals = await SignalWaiter.install()
        let catalog = ConformanceCatalog(profile: target.profile)
        let cases = try filter.select(catalog.cases)
        let baseline = try report.loadBaseline()
        var settings = ServerRunSettings(host: server.host, port: server.port, clock: Clock.unixSeconds)
        settings.timeout = timeout
        settings.jobs = jobs
        settings.repeats = report.repeat
        let runner = ServerConformanceRunner(catalog: catalog, settings: settings)
        try await report.conduct(knownIDs: Set(catalog.cases.map(\.id)), baseline: baseline, signals: signals, files: files) { progress in
            var run: ConformanceRun
            do throws(TargetProblem) { run = try await runner.run(cases, progress: progress) } catch { throw InputError(error.reason + " No case ran.") }
            run.diagnose { ServerDiagnosis.diagnose($0, cases: catalog.cases, profile: target.profile, timeout: timeout) }
            return run
        }
    }
}

/// The live progress line on standard error, when it is a terminal: cases done, and the last one.
struct ProgressLine: Sendable {
    private let isShown = isatty(2) == 1

    func show(_ result: CaseResult, done: Int, total: Int) {
        guard isShown else { return }
        let text = "[\(done)/\(total)] \(result.verdict.kind.rawValue) \(result.testCase.id)"
        FileHandleOutput.standardError.write("\r\u{1B}[K" + text.prefix(100))
    }

    func clear() {
        guard isShown else { return }
        FileHandleOutput.standardError.write("\r\u{1B}[K")
    }
}
