import ArgumentParser
import DecafFuzz
import DecafJSON
import DecafWire
import Foundation

/// `decaf fuzz decoder -- COMMAND ARGS...`: a campaign against a codec speaking the testee
/// protocol (Specs/conform-testee.md), with findings minimized and saved as they come.
struct FuzzDecoderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoder",
        abstract: "Fuzz a codec that speaks the testee protocol on stdin/stdout; each finding minimized and saved.",
        discussion: """
        Example: decaf fuzz decoder --duration 30s -- decaf testee decoder --fault crash-on-deep-empty-text
        Inputs are mutants of the golden vectors (or of --corpus), made with the protocol's structure and, most of the time, \
        with body_length and checksum repaired so they reach the parser. Each is judged as decaf conform decoder judges a \
        vector, against what the brief makes of it: a crash (the testee dies), a hang (no answer within --timeout) or an \
        answer that breaks a MUST is a finding. Each distinct finding is minimized and saved in --findings as NAME.bin and \
        NAME.json; decaf fuzz replay NAME.json -- COMMAND sends it again, decaf dissect NAME.bin shows it. The same --seed \
        and corpus give the same inputs. Ctrl-C stops the run and keeps every finding saved. \
        A campaign ends within --duration and twice --timeout, whatever the testee does. A testee that writes what no \
        request asked for (an answer twice), or keeps exiting by itself (10 times, and in one input of 20), is given up \
        on with exit 2, the findings before kept. Memory: of each answer at most twice --body-limit and 64 KiB, of \
        standard error the last 16 KiB; --jobs testees at once.
        The progress line counts the distinct answers: how many different kinds of answer the testee gave (a frame, each \
        error, a close, a hang): how much of it the inputs reach.
        With --coverage, a testee built with AFL++'s afl-clang-fast (make testee-c CC=afl-clang-fast) is given a coverage \
        map (__AFL_SHM_ID, as afl-fuzz gives it): an input that hits an edge or a hit count no input hit before joins the \
        corpus, and the progress line counts the edges. A testee that is not instrumented is said so in one line and \
        fuzzed without coverage.
        Exit status: 0 no finding, 1 findings, 2 usage error, a testee that cannot be started or is given up on, 3 no input could be sent, 130 interrupted.
        """
    )

    @OptionGroup var campaign: FuzzCampaignOptions

    @OptionGroup var limits: DecodeOptionsArguments

    @OptionGroup var reports: ReportFiles

    @Option(help: ArgumentHelp("How long to wait for each answer before the input counts as a hang. (default: 5s)", valueName: "duration"),
            transform: DurationArgument.positive)
    var timeout = Duration.seconds(5)

    @Flag(help: "Read the coverage of a testee built with AFL++'s afl-clang-fast and keep the inputs that reach something new.")
    var coverage = false

    @OptionGroup var testee: TesteeCommandArguments

    func run() async throws {
        let inputs = try campaign.inputs()
        let directory = try campaign.directory()
        var settings = campaign.settings(timeout: timeout, options: limits.decodeOptions)
        settings.coverage = coverage
        let fuzzer: DecoderFuzzer
        do { fuzzer = try DecoderFuzzer(command: testee.command, corpus: inputs, settings: settings) } catch {
            throw InputError("decaf fuzz decoder: \(error)")
        }
        let store = FindingStore(directory: directory, shown: campaign.findings, seed: campaign.seed, options: settings.options, testee: testee.command)
        try await campaign.conduct(fuzzer, against: .decoder, described: testee.command.joined(separator: " "), corpus: inputs, settings: settings, store: store, reports: reports, hint: "; check the command after --")
    }
}
