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
        and corpus give the same inputs. Ctrl-C stops the run and keeps every finding saved.
        Exit status: 0 no finding, 1 findings, 2 usage error or a testee that cannot be started, 130 interrupted.
        """
    )

    @Option(help: ArgumentHelp("How long to fuzz. (default: 60s, or until --runs)", valueName: "duration"), transform: DurationArgument.positive)
    var duration: Duration?

    @Option(help: ArgumentHelp("How many inputs to try.", valueName: "count"), transform: IntegerArgument.within(1...Int(Int32.max)))
    var runs: Int?

    @Option(help: ArgumentHelp("Stop once this many distinct findings are saved (1: at the first, as libFuzzer does).", valueName: "count"),
            transform: IntegerArgument.within(1...Int(Int32.max)))
    var maxFindings: Int?

    @Option(help: ArgumentHelp("The seed of the inputs: the same seed and corpus give the same inputs. (default: 1)", valueName: "number"),
            transform: IntegerArgument.within(UInt64.min...UInt64.max))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("How long to wait for each answer before the input counts as a hang. (default: 5s)", valueName: "duration"),
            transform: DurationArgument.positive)
    var timeout = Duration.seconds(5)

    @Option(help: ArgumentHelp("Start from these frames instead of the golden vectors: a file (one input), a capture (its frames) or a directory of them; repeatable.", valueName: "path"),
            transform: PathArgument.parse)
    var corpus: [String] = []

    @Option(help: ArgumentHelp("Where findings are saved. (default: decaf-findings)", valueName: "directory"), transform: PathArgument.parse)
    var findings = "decaf-findings"

    @OptionGroup var limits: DecodeOptionsArguments

    @Argument(parsing: .postTerminator, help: "The testee's command line, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the testee's command after --, e.g. -- decaf testee decoder") }
    }

    func run() async throws {
        let signals = await SignalWaiter.install()
        let inputs = corpus.isEmpty ? FuzzCorpus.golden : try FuzzCorpus.load(corpus)
        let directory = URL(filePath: findings)
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw InputError("--findings \(findings): cannot create the directory (\(error.localizedDescription))")
        }
        let settings = FuzzSettings(seed: seed, runs: runs, duration: runs == nil ? (duration ?? .seconds(60)) : duration, maxFindings: maxFindings, timeout: timeout,
                                    options: limits.decodeOptions)
        let fuzzer = DecoderFuzzer(command: command, corpus: inputs, settings: settings)
        let progress = FuzzProgressLine()
        let store = FindingStore(directory: directory, shown: findings, seed: seed, options: settings.options, testee: command)
        let state: FuzzProgress
        do {
            state = try await signals.interrupting {
                try await fuzzer.run(progress: progress.show) { finding in
                    progress.clear()
                    print(store.save(finding) + "\n")
                }
            }
        } catch {
            progress.clear()
            throw InputError("decaf fuzz decoder: \(error); check the command after --")
        }
        progress.clear()
        print(FuzzProgressLine.summary(state, findings: findings))
        Foundation.exit(state.interrupted ? 130 : state.findings > 0 ? 1 : 0)
    }
}
