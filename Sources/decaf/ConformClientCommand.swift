import ArgumentParser
import DecafConformance

/// `decaf conform client -- COMMAND ARGS...`: runs the client cases against a client in any
/// language, started once per case against a scripted server (Specs/conform-client.md).
struct ConformClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Run the client cases against a client testee, started once per case against a scripted server.",
        discussion: """
        Examples: decaf conform client -- decaf testee client
                  decaf conform client -- python3 tools/reference/client.py
        The protocol is in Specs/conform-client.md. A testee that crashes, hangs or prints garbage spoils only its case.
        Exit status: 0 every required case passed, 1 failures, 2 usage or harness error, 3 nothing ran.
        """
    )

    @OptionGroup var filter: CaseFilterOptions
    @OptionGroup var report: ReportOptions

    @Option(help: ArgumentHelp("Cases to run at once, each with its own port and testee. (default: 8)", valueName: "n"), transform: IntegerArgument.within(1...64))
    var jobs = 8

    @Argument(parsing: .postTerminator, help: "The testee's command line, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the testee's command after --, e.g. -- decaf testee client") }
    }

    func run() async throws {
        let selected = try filter.select(ClientCatalog.cases.map(\.conformanceCase))
        let ids = Set(selected.map(\.id))
        let baseline = try report.loadBaseline()
        var settings = ClientRunSettings(command: command, clock: Clock.unixSeconds)
        settings.jobs = jobs
        settings.repeats = report.repeat
        let progress = ProgressLine()
        let run: ConformanceRun
        do {
            run = try await ClientConformanceRunner(settings: settings).run(ClientCatalog.cases.filter { ids.contains($0.id) }) { result, done, total in
                progress.show(result, done: done, total: total)
            }
        } catch {
            progress.clear()
            throw InputError(error.description)
        }
        progress.clear()
        try report.finish(run, knownIDs: Set(ClientCatalog.cases.map(\.id)), baseline: baseline)
    }
}
