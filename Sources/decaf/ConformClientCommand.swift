import ArgumentParser
import DecafConformance
import DecafPeer

/// `decaf conform client -- COMMAND ARGS...`: runs the client cases against a client in any
/// language, started once per case against a scripted server (Specs/conform-client.md).
struct ConformClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Run the client cases against a client testee, started once per case against a scripted server.",
        discussion: """
        Examples: decaf conform client -- decaf testee client
                  decaf conform client -- python3 tools/reference/client.py
        The protocol is in Specs/conform-client.md. A testee that crashes, hangs or prints garbage spoils only its case, \
        which ends within its time limit (8 s for most cases). A testee that does nothing a case can judge in each of \
        the first 3 cases (it exits, prints nothing, prints what is not an event, never connects) stops the run within \
        3 case time limits, with one paragraph. Ctrl-C stops the run and its testees: the verdicts reached are printed, \
        marked INTERRUPTED, and the reports asked for are written, marked incomplete. Memory: of each testee, a line of at \
        most 64 KiB and twice the largest payload its case sends (a longer one is not an event), the last 16 KiB of its \
        standard error, and a transcript of the first and last 256 KiB; --jobs testees at once.
        The report opens with a diagnosis: the smallest set of the reference client's faults (decaf testee client \
        --list-faults) whose client, judged in memory, gets the very verdicts the testee got, each named once as a \
        defect with the failures it explains, the shortest as evidence, and the fix; failures none explains follow as \
        cases (--verbose: every case).
        Exit status: 0 every required case passed, 1 failures, 2 usage or harness error, or a testee that cannot be \
        tested, 3 nothing ran, 130 interrupted.
        """
    )

    @OptionGroup var filter: CaseFilterOptions
    @OptionGroup var files: ReportFiles
    @OptionGroup var report: ReportOptions

    @Option(help: ArgumentHelp("Cases to run at once, each with its own port and testee. (default: 8)", valueName: "n"), transform: IntegerArgument.within(1...64))
    var jobs = 8

    @Option(help: ArgumentHelp("Record every connection of every case to this pcap file (for decaf monitor, decaf dissect).", valueName: "file"),
            transform: PathArgument.parse)
    var pcap: String?

    @OptionGroup var testee: TesteeCommandArguments

    func run() async throws {
        let signals = await SignalWaiter.install()
        let selected = try filter.select(ClientCatalog.cases.map(\.conformanceCase))
        let ids = Set(selected.map(\.id))
        let baseline = try report.loadBaseline()
        var settings = ClientRunSettings(command: testee.command, clock: Clock.unixSeconds)
        settings.jobs = jobs
        settings.repeats = report.repeat
        let runner: ClientConformanceRunner
        do {
            runner = try ClientConformanceRunner(settings: settings, pcapPath: pcap)
        } catch {
            throw ValidationError("--pcap: \(error)")
        }
        let cases = ClientCatalog.cases.filter { ids.contains($0.id) }
        try await report.conduct(knownIDs: Set(ClientCatalog.cases.map(\.id)), baseline: baseline, signals: signals, files: files) { progress in
            var run = try await runner.run(cases, progress: progress)
            run.diagnose { ClientDiagnosis.diagnose($0, cases: cases) }
            return run
        }
    }
}
