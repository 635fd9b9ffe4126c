import ArgumentParser
import DecafConformance
import DecafDissect
import DecafFuzz
import DecafWire
import Foundation

/// What every `decaf fuzz` campaign takes: when it stops, its seed, its corpus, where findings go,
/// and how many inputs go at once. (The receiver settings and the reports are groups of the
/// command's own, beside this one: ArgumentParser's checks of nested groups cost a debug build a
/// tenth of a second at every start.)
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

    @Option(help: ArgumentHelp("Inputs to ask at once (testees, connections or clients side by side); the inputs are the same whatever it is. (default: 1)",
                               valueName: "n"), transform: IntegerArgument.within(1...64))
    var jobs = 1

    @Option(help: ArgumentHelp("Share inputs with other fuzzers through this directory, in AFL++'s layout (afl-fuzz -o DIR -S NAME): "
                               + "this campaign's new inputs go into DIR/NAME/queue, the others' are read from theirs.", valueName: "directory"),
            transform: PathArgument.parse)
    var syncDir: String?

    @Option(help: ArgumentHelp("This campaign's name in --sync-dir, unique among the fuzzers sharing it. (default: decaf-PID)", valueName: "name"),
            transform: SyncName.parse)
    var syncName: String?

    @Option(help: ArgumentHelp("How often the other fuzzers' queues in --sync-dir are read. (default: 10s)", valueName: "duration"),
            transform: DurationArgument.positive)
    var syncInterval: Duration?

    /// The campaign's settings, waiting `timeout` for each answer, the brief's answers taken under `options`.
    func settings(timeout: Duration, options: DecodeOptions) -> FuzzSettings {
        var settings = FuzzSettings(seed: seed, runs: runs, duration: runs == nil ? (duration ?? .seconds(60)) : duration, maxFindings: maxFindings,
                                    timeout: timeout, options: options, jobs: jobs)
        settings.sync = syncDir.map { ($0, syncName ?? "decaf-\(getpid())") }
        if let syncInterval { settings.syncInterval = syncInterval }
        return settings
    }

    func validate() throws {
        if syncName != nil && syncDir == nil { throw ValidationError("--sync-name names this campaign in --sync-dir: give --sync-dir DIR too") }
        if syncInterval != nil && syncDir == nil { throw ValidationError("--sync-interval is how often --sync-dir is read: give --sync-dir DIR too") }
    }

    /// The corpus's inputs: the golden vectors unless --corpus is given.
    func inputs() throws -> [[UInt8]] {
        corpus.isEmpty ? FuzzCorpus.golden : try FuzzCorpus.load(corpus)
    }

    /// Runs `fuzzer` against the `target` (`decoder`, `server`, `client`: `described` for the
    /// reports) with its progress (`FuzzProgressLine`), saves and prints each finding as it comes (on standard
    /// error with `--json`), stops what the campaign started, then prints the summary (or the run as
    /// JSON), writes the reports asked for and exits as decaf conform does: 0 no finding, 1
    /// findings, 3 no input could be sent, 130 interrupted (Ctrl-C keeps every finding). A
    /// campaign that cannot start is one line ending in `hint`, exit 2.
    func conduct(_ fuzzer: some FuzzCampaign, against target: ConformanceRun.Kind, described: String, corpus: [[UInt8]], settings: FuzzSettings,
                 store: FindingStore, reports: ReportFiles, hint: String = "") async throws -> Never {
        let signals = await SignalWaiter.install()
        let progress = FuzzProgressLine(target: target.rawValue)
        let found = FindingList()
        let state: FuzzProgress
        do {
            state = try await signals.interrupting {
                try await fuzzer.run(within: settings, progress: progress.show) { finding in
                    progress.clear()
                    found.append(finding)
                    // Written at once, unbuffered: a campaign whose output goes to a file shows each
                    // finding as it is found, not at its end.
                    let paragraph = store.save(finding) + "\n\n"
                    (reports.json ? FileHandleOutput.standardError : FileHandleOutput.standardOutput).write(paragraph)
                }
            }
        } catch {
            progress.clear()
            fuzzer.stop()
            throw InputError("decaf fuzz \(target.rawValue): \(error)\(hint)")
        }
        fuzzer.stop()
        progress.clear()
        let summary = FuzzProgressLine.summary(state, of: target.rawValue, findings: findings)
        let explained = fuzzer.explained(found.all)
        let run = FuzzReport.run(of: state, findings: explained, kind: target, target: described, settings: settings, corpus: corpus, summary: summary)
        let defects = run.diagnosis.map { FuzzProgressLine.defects($0, of: explained, in: state) + "\n" } ?? ""
        reports.emit(run, text: ((state.targetLost ?? state.stoppedBy).map { "Stopped: \($0).\n" } ?? "") + defects + summary + "\n")
        Foundation.exit(run.exitStatus)
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
