import ArgumentParser
import DecafFuzz
import Foundation

/// What every `decaf fuzz` campaign takes: when it stops, its seed, its corpus, where findings go,
/// and the receiver settings the brief's answers assume.
struct FuzzCampaignOptions: ParsableArguments {
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

    @Option(help: ArgumentHelp("Start from these frames instead of the golden vectors: a file (one input), a capture (its frames) or a directory of them; repeatable.", valueName: "path"),
            transform: PathArgument.parse)
    var corpus: [String] = []

    @Option(help: ArgumentHelp("Where findings are saved. (default: decaf-findings)", valueName: "directory"), transform: PathArgument.parse)
    var findings = "decaf-findings"

    @OptionGroup var limits: DecodeOptionsArguments

    /// The campaign's settings, waiting `timeout` for each answer.
    func settings(timeout: Duration) -> FuzzSettings {
        FuzzSettings(seed: seed, runs: runs, duration: runs == nil ? (duration ?? .seconds(60)) : duration, maxFindings: maxFindings, timeout: timeout,
                     options: limits.decodeOptions)
    }

    /// The corpus's inputs: the golden vectors unless --corpus is given.
    func inputs() throws -> [[UInt8]] {
        corpus.isEmpty ? FuzzCorpus.golden : try FuzzCorpus.load(corpus)
    }

    /// Runs `fuzzer` against the `target` (`decoder`, `server`) with a live progress line, saves and
    /// prints each finding as it comes, stops what the campaign started, prints the summary and
    /// exits: 0 no finding, 1 findings, 130 interrupted (Ctrl-C keeps every finding). A campaign that
    /// cannot start is one line ending in `hint`, exit 2.
    func conduct(_ fuzzer: some FuzzCampaign, against target: String, store: FindingStore, hint: String = "") async throws -> Never {
        let signals = await SignalWaiter.install()
        let progress = FuzzProgressLine()
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
            fuzzer.stop()
            throw InputError("decaf fuzz \(target): \(error)\(hint)")
        }
        fuzzer.stop()
        progress.clear()
        if let why = state.stoppedBy { print("Stopped: \(why).") }
        print(FuzzProgressLine.summary(state, of: target, findings: findings))
        Foundation.exit(state.interrupted ? 130 : state.findings > 0 ? 1 : 0)
    }

    /// The findings directory. It is made when the first file goes into it, so a campaign that
    /// finds nothing (or cannot start) leaves nothing behind; whether it can be is checked now.
    func directory() throws -> URL {
        let directory = URL(filePath: findings)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw InputError("--findings \(findings): not a directory") }
            guard FileManager.default.isWritableFile(atPath: directory.path) else { throw InputError("--findings \(findings): cannot write there") }
            return directory
        }
        var parent = directory.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: parent.path), parent.path != "/" { parent = parent.deletingLastPathComponent() }
        guard FileManager.default.isWritableFile(atPath: parent.path) else {
            throw InputError("--findings \(findings): cannot create the directory (\(parent.path) is not writable)")
        }
        return directory
    }
}
