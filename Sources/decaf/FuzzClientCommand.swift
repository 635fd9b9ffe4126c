import ArgumentParser
import DecafFuzz
import Foundation

/// `decaf fuzz client -- COMMAND ARGS...`: a campaign against a client speaking the client
/// protocol (Specs/conform-client.md), each input sent by the suite's server right after the
/// handshake, with findings minimized and saved as they come.
struct FuzzClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Fuzz a client that speaks the client protocol; each finding minimized and saved.",
        discussion: """
        Example: decaf fuzz client --duration 2m --jobs 4 -- decaf testee client --fault crash-on-deep-empty-text
        The suite's server listens on a loopback port and starts COMMAND as decaf conform client does; right after the \
        handshake it sends an input (a mutant of the golden vectors or of --corpus, a quarter of them cut into two or three \
        writes), then a DATA frame the client must acknowledge. Each job keeps its client for the next inputs \
        (AFLNet-style): one goes out on the connection the last left open, or on the client's next connection after a \
        close, so a client that reconnects is started once, not once per input; a client that exits or does not come back \
        within 3 s after its longest reconnect wait is started again. --process-per-input starts it for each input, with a \
        listener of its own. A finding in a kept client is asked again of a client started for it alone; a disagreement, a \
        hang or a crash that shows only in a client sent other inputs first is asked after them, as few as still set it off, and \
        saved with them (replay sends them first). The client's answer is judged against \
        what the brief makes of the input: a client that dies has crashed; one that neither acknowledges the DATA frame \
        after it nor closes the connection within --timeout (and again with twice as long) hangs; one that delivers or \
        acknowledges a frame the brief refuses, refuses one it accepts, or acknowledges it twice breaks a MUST (asked twice \
        before it counts). The server offers BASIC and COMPRESSION; a compressed input needs a client that offers \
        COMPRESSION. Findings are saved in --findings as NAME.bin and NAME.json; decaf fuzz replay NAME.json --client -- \
        COMMAND sends one again. Ctrl-C stops the run and keeps every finding. \
        A campaign ends within --duration and twice --timeout, whatever the client does. Memory: of each client, a line \
        of at most 64 KiB and twice the input's payload, the last 16 KiB of its standard error, and a transcript of \
        the first and last 256 KiB; of a client kept for many inputs, the sequence and timestamp of at most 32,768 frames \
        sent to it; --jobs clients at once. Findings are one per defect: a failure the reference client \
        gives with one of its faults planted (or two together) is named by them, and the inputs that show a defect \
        already found are counted, not reported again.
        The progress line counts the distinct answers: how many different kinds of answer the client gave (a frame, each \
        error, a close, a hang): how much of it the inputs reach.
        With --coverage, a client built with AFL++'s afl-clang-fast (make client-c CC=afl-clang-fast) is started with a \
        coverage map of its job's own (__AFL_SHM_ID, as afl-fuzz gives it), cleared before each input and read once the \
        input is judged: an input that hits an edge or a hit count no input hit before joins the corpus, and the progress \
        line counts the edges. A client that is not instrumented is said so in one line and fuzzed without coverage.
        Exit status: 0 no finding, 1 findings, 2 usage error or a client that cannot be started, 3 no input could be sent, 130 interrupted.
        """
    )

    @OptionGroup var campaign: FuzzCampaignOptions

    @OptionGroup var limits: DecodeOptionsArguments

    @OptionGroup var reports: ReportFiles

    @Option(help: ArgumentHelp("How long an input's case may take (the client started, the handshake, the input) before it counts as a hang. (default: 5s)",
                               valueName: "duration"), transform: DurationArgument.positive)
    var timeout = Duration.seconds(5)

    @Flag(help: "Start the client for each input, with a listener of its own, rather than keep it for the next inputs while it reconnects.")
    var processPerInput = false

    @Flag(help: "Read the coverage of a client built with AFL++'s afl-clang-fast and keep the inputs that reach something new.")
    var coverage = false

    @OptionGroup var testee: TesteeCommandArguments

    func run() async throws {
        let inputs = try campaign.inputs()
        let directory = try campaign.directory()
        var settings = campaign.settings(timeout: timeout, options: limits.decodeOptions)
        settings.coverage = coverage
        let fuzzer: ClientFuzzer
        do {
            fuzzer = try ClientFuzzer(command: testee.command, corpus: inputs, settings: settings, diagnosis: FindingDiagnoses.client(),
                                      processPerInput: processPerInput, clock: Clock.unixSeconds)
        } catch {
            throw InputError("decaf fuzz client: \(error)")
        }
        let store = FindingStore(directory: directory, shown: campaign.findings, seed: campaign.seed, options: settings.options, testee: ["--client"] + testee.command)
        try await campaign.conduct(fuzzer, against: .client, described: fuzzer.target, corpus: inputs, settings: settings, store: store, reports: reports, hint: "; check the command after --")
    }
}
