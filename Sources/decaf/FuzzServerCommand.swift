import ArgumentParser
import DecafFuzz
import Foundation

/// `decaf fuzz server HOST:PORT`: a campaign against a running server, each input sent after a
/// handshake on a connection of its own, with findings minimized and saved as they come.
struct FuzzServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Fuzz a server over TCP; each finding minimized and saved.",
        discussion: """
        Example: decaf fuzz server 127.0.0.1:7447 --duration 2m --restart 'decaf peer --port 7447'
        Each input is a mutant of the golden vectors (or of --corpus), sent on a fresh connection after the handshake \
        (some after a DATA frame, some cut into several writes), and judged as decaf conform server judges a vector: \
        a server that then stops answering a fresh handshake has crashed; a connection that gets neither an answer nor the \
        close the brief demands within --timeout (and again with twice as long) hangs; an answer that breaks a MUST (an \
        ACK of a frame the brief refuses, a refusal of one it accepts) is a disagreement. With --restart, a crashed server \
        is started again with COMMAND (run by /bin/sh, its output in the findings directory's server.log) and the campaign \
        goes on; without it, the campaign ends at a crash. Findings are saved in --findings as NAME.bin and NAME.json; \
        decaf fuzz replay NAME.json --server HOST:PORT sends one again. Ctrl-C stops the run and keeps every finding. \
        A campaign ends within --duration and twice --timeout, whatever the server does (an answer still awaited then \
        is given up). Memory: of each connection at most 4 MiB of frames not yet judged and a transcript of the first \
        and last 256 KiB, whatever the server sends. A failure that a plain DATA frame sent the same way shows too is \
        not laid at the input's door: it is one finding, "not caused by the input". Findings are one per defect: a failure \
        the reference peer gives with one of its faults or codec mistakes planted (or two together) is named by them, and \
        the inputs that show a defect already found are counted, not reported again.
        The progress line counts the distinct answers: how many different kinds of answer the server gave (a frame, each \
        error, a close, a hang): how much of it the inputs reach.
        With --coverage and --restart, a server built with AFL++'s afl-clang-fast (make server-c CC=afl-clang-fast) is \
        started by Decaf with a coverage map (__AFL_SHM_ID, as afl-fuzz gives it), cleared before each input and read once \
        the input is judged: an input that hits an edge or a hit count no input hit before joins the corpus, and the \
        progress line counts the edges. Inputs then go one at a time (the server has one map). Edges the server passes \
        after its answer (a timer, the close) may be read with the next input. A server that is not instrumented is said \
        so in one line and fuzzed without coverage.
        Exit status: 0 no finding, 1 findings, 2 usage error or a server that cannot be reached, 3 no input could be sent, 130 interrupted.
        """
    )

    @Argument(help: ArgumentHelp("The server under test, HOST:PORT.", valueName: "host:port"), transform: Endpoint.server)
    var server: Endpoint

    @OptionGroup var campaign: FuzzCampaignOptions

    @OptionGroup var limits: DecodeOptionsArguments

    @OptionGroup var reports: ReportFiles

    @Option(help: ArgumentHelp("How long to wait for each answer the brief demands. (default: 2s)", valueName: "duration"),
            transform: DurationArgument.positive)
    var timeout = Duration.seconds(2)

    @Option(help: ArgumentHelp("Start the server with this shell command when it does not answer (at the start, or after a crash), and stop it at the end.",
                               valueName: "command"), transform: TextArgument.nonEmpty)
    var restart: String?

    @Flag(help: "Start the server (--restart) with an AFL++ coverage map, read its coverage and keep the inputs that reach something new.")
    var coverage = false

    func run() async throws {
        let inputs = try campaign.inputs()
        let directory = try campaign.directory()
        var settings = campaign.settings(timeout: timeout, options: limits.decodeOptions)
        settings.coverage = coverage
        let restarter = restart.map { ServerRestart(command: $0, log: directory.appending(path: "server.log")) }
        let fuzzer: ServerFuzzer
        do {
            fuzzer = try ServerFuzzer(host: server.host, port: server.port, corpus: inputs, settings: settings, restart: restarter,
                                      diagnosis: FindingDiagnoses.server(settings), clock: Clock.unixSeconds)
        } catch {
            throw InputError("decaf fuzz server: \(error)")
        }
        let store = FindingStore(directory: directory, shown: campaign.findings, seed: campaign.seed, options: settings.options, testee: ["--server", fuzzer.target])
        try await campaign.conduct(fuzzer, against: .server, described: fuzzer.target, corpus: inputs, settings: settings, store: store, reports: reports)
    }
}
