import ArgumentParser
import DecafConformance
import DecafDissect
import Foundation

/// The baseline a conformance run is judged against, repeats, and how much the text shows. (The
/// report files are a group of the command's own, beside this one: ArgumentParser's checks of
/// nested groups cost a debug build a tenth of a second at every start.)
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A file of expected failures, one case ID per line; only unexpected results fail the run.", valueName: "file"), transform: PathArgument.parse)
    var baseline: String?

    @Option(help: ArgumentHelp("Write the IDs of the failing cases to this file, as a baseline to start from.", valueName: "file"), transform: PathArgument.output)
    var writeBaseline: String?

    @Option(help: ArgumentHelp("Run every case this many times and report the cases whose verdicts differ. (default: 1)", valueName: "n"), transform: IntegerArgument.within(1...1000))
    var `repeat` = 1

    @Flag(name: [.customShort("v"), .customShort("V"), .customLong("verbose")], help: "Show every case with its bytes, not only those that did not pass cleanly.")
    var verbose = false

    func loadBaseline() throws -> Baseline? {
        guard let baseline else { return nil }
        guard let text = try? String(contentsOfFile: baseline, encoding: .utf8) else {
            FileHandleOutput.standardError.write("decaf conform: cannot read the baseline \(baseline)\n")
            throw ExitCode(2)
        }
        return Baseline(text: text)
    }

    /// Runs a suite with a progress line on a terminal, stops it on SIGINT or SIGTERM keeping the
    /// verdicts reached, then finishes as `finish` does. `suite` gets the progress callback; what
    /// it throws (a target or testee that cannot be used) is said in one line, exit status 2.
    /// `signals` were installed when the command started, so a Ctrl-C while it prepares is kept.
    func conduct(knownIDs: Set<String>, baseline: Baseline?, signals: SignalWaiter, files: ReportFiles,
                 _ suite: @escaping @Sendable (@escaping @Sendable (CaseResult, Int, Int) -> Void) async throws -> ConformanceRun) async throws -> Never {
        let progress = ProgressLine()
        let run: ConformanceRun
        do {
            run = try await signals.interrupting { try await suite { result, done, total in progress.show(result, done: done, total: total) } }
        } catch {
            progress.clear()
            throw (error as? InputError) ?? InputError("\(error)")
        }
        progress.clear()
        try finish(run, knownIDs: knownIDs, baseline: baseline, files: files)
    }

    /// Judges `run` against the baseline, prints it and writes the reports `files` asks for; exits with the run's status.
    func finish(_ run: ConformanceRun, knownIDs: Set<String>, baseline: Baseline?, files: ReportFiles) throws -> Never {
        var run = run
        run.baseline = baseline?.compare(with: run.results, knownIDs: knownIDs)
        if let writeBaseline {
            do {
                try PathArgument.makeDirectories(for: writeBaseline)
                try Baseline.text(for: run).write(toFile: writeBaseline, atomically: true, encoding: .utf8)
            } catch {
                FileHandleOutput.standardError.write("decaf conform: cannot write a report: \(error)\n")
                Foundation.exit(2)
            }
        }
        files.emit(run, text: TextReport.render(run, verbose: verbose))
        Foundation.exit(run.exitStatus)
    }
}
