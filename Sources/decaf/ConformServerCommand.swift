import ArgumentParser
import DecafConformance
#if canImport(Glibc)
import Glibc
#endif

/// `decaf conform server HOST:PORT`: runs the catalog against a server, each case on its own
/// connection.
struct ConformServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the conformance cases against a server.",
        discussion: "Exit status: 0 every required case passed, 1 failures, 2 usage or harness error, 3 nothing ran."
    )

    @Argument(help: ArgumentHelp("The server under test, HOST:PORT.", valueName: "host:port"), transform: Endpoint.server)
    var server: Endpoint

    @OptionGroup var target: TargetProfileOptions
    @OptionGroup var filter: CaseFilterOptions
    @OptionGroup var report: ReportOptions

    @Option(help: ArgumentHelp("How long to wait for anything the server must do, per expectation. (default: 2s)", valueName: "duration"), transform: DurationArgument.positive)
    var timeout = ServerRunSettings.defaultTimeout

    @Option(help: ArgumentHelp("Cases to run at once, each on its own connection. (default: 4)", valueName: "n"), transform: IntegerArgument.within(1...256))
    var jobs = 4

    func run() async throws {
        let catalog = ConformanceCatalog(profile: target.profile)
        let cases = try filter.select(catalog.cases)
        let baseline = try report.loadBaseline()
        var settings = ServerRunSettings(host: server.host, port: server.port, clock: Clock.unixSeconds)
        settings.timeout = timeout
        settings.jobs = jobs
        settings.repeats = report.repeat
        let progress = ProgressLine()
        let run: ConformanceRun
        do {
            run = try await ServerConformanceRunner(catalog: catalog, settings: settings).run(cases) { result, done, total in
                progress.show(result, done: done, total: total)
            }
        } catch {
            progress.clear()
            throw InputError(error.description)
        }
        progress.clear()
        try report.finish(run, knownIDs: Set(catalog.cases.map(\.id)), baseline: baseline)
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
