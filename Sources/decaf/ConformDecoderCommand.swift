import ArgumentParser
import DecafConformance

/// `decaf conform decoder -- COMMAND ARGS...`: runs the codec cases against a codec in any
/// language, driven over its standard input and output (Specs/conform-testee.md).
struct ConformDecoderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoder",
        abstract: "Run the codec cases against a testee process speaking the testee protocol on stdin/stdout.",
        discussion: """
        Example: decaf conform decoder -- python3 tools/reference/testee.py
        The protocol is in Specs/conform-testee.md. A testee that crashes or hangs fails that case and is started again.
        """
    )

    @OptionGroup var filter: CaseFilterOptions

    @OptionGroup var report: ReportOptions

    @Option(help: ArgumentHelp("How long to wait for each answer. (default: 5s)", valueName: "duration"), transform: DurationArgument.positive)
    var timeout = Duration.seconds(5)

    @Argument(parsing: .postTerminator, help: "The testee's command line, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the testee's command after --, e.g. -- python3 tools/reference/testee.py") }
    }

    func run() throws {
        let all = CodecCase.all
        let selected = try filter.select(all.map(\.conformanceCase))
        let ids = Set(selected.map(\.id))
        let baseline = try report.loadBaseline()
        var runner = DecoderConformanceRunner(command: command)
        runner.timeout = timeout
        runner.repeats = report.repeat
        let progress = ProgressLine()
        let run: ConformanceRun
        do {
            run = try runner.run(all.filter { ids.contains($0.id) }) { result, done, total in progress.show(result, done: done, total: total) }
        } catch {
            progress.clear()
            throw InputError(error.description)
        }
        progress.clear()
        try report.finish(run, knownIDs: Set(all.map(\.id)), baseline: baseline)
    }
}
