import ArgumentParser
import DecafConformance

/// `decaf conform decoder -- COMMAND ARGS...`: runs the codec cases against a codec in any
/// language, driven over its standard input and output (Specs/conform-testee.md).
struct ConformDecoderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoder",
        abstract: "Run the codec cases against a testee process speaking the testee protocol on stdin/stdout.",
        discussion: """
        Example: decaf conform decoder -- python3 tools/reference/testee.py
        The protocol is in Specs/conform-testee.md. A testee that crashes or hangs fails that case and is started again; \
        one that answers none of its first 3 cases (it exits, hangs, or prints what is not the protocol's JSON) stops \
        the run within 3 x --timeout, with one paragraph. Ctrl-C stops the run: the verdicts reached are printed, marked \
        INTERRUPTED, and the reports asked for are written, marked incomplete. A request is written while the answer pipe \
        is read, so a testee that writes when nobody asked never blocks the run; what it writes that no request asked \
        for (an answer twice) and its exits between requests are one failure of their own (codec.testee-protocol). \
        Memory: of each answer at most twice the body limit and 64 KiB (a frame at the limit, in hex), of its standard \
        error the last 16 KiB; unrequested output is counted, not kept.
        The report opens with a diagnosis: the smallest set of catalogued mistakes (decaf testee decoder --list-mistakes) \
        whose codec gets the very verdicts the testee got, each named once as a defect with the failures it explains, \
        the shortest as evidence, and the fix; failures none explains follow as cases (--verbose: every case).
        Exit status: 0 every required case passed, 1 failures, 2 usage or harness error, or a testee that cannot be \
        tested, 3 nothing ran, 130 interrupted.
        """
    )

    @OptionGroup var filter: CaseFilterOptions

    @OptionGroup var files: ReportFiles
    @OptionGroup var report: ReportOptions

    @Option(help: ArgumentHelp("How long to wait for each answer. (default: 5s)", valueName: "duration"), transform: DurationArgument.positive)
    var timeout = Duration.seconds(5)

    @OptionGroup var testee: TesteeCommandArguments

    func run() async throws {
        let signals = await SignalWaiter.install()
        let all = CodecCase.all
        let selected = try filter.select(all.map(\.conformanceCase))
        let ids = Set(selected.map(\.id))
        let baseline = try report.loadBaseline()
        var runner = DecoderConformanceRunner(command: testee.command)
        runner.timeout = timeout
        runner.repeats = report.repeat
        let cases = all.filter { ids.contains($0.id) }
        try await report.conduct(knownIDs: Set(all.map(\.id)), baseline: baseline, signals: signals, files: files) { [runner] progress in
            try await runner.run(cases, progress: progress)
        }
    }
}
