import ArgumentParser
import DecafConformance
import DecafDissect
import Foundation

/// Where a conformance run's results go, the baseline it is judged against, and repeats.
struct ReportOptions: ParsableArguments {
    @Flag(help: "Print the run as JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"), transform: PathArgument.parse)
    var junit: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report to this file.", valueName: "file"), transform: PathArgument.parse)
    var html: String?

    @Option(help: ArgumentHelp("A file of expected failures, one case ID per line; only unexpected results fail the run.", valueName: "file"), transform: PathArgument.parse)
    var baseline: String?

    @Option(help: ArgumentHelp("Write the IDs of the failing cases to this file, as a baseline to start from.", valueName: "file"), transform: PathArgument.parse)
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
    func conduct(knownIDs: Set<String>, baseline: Baseline?, signals: SignalWaiter,
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
        try finish(run, knownIDs: knownIDs, baseline: baseline)
    }

    /// Judges `run` against the baseline, prints it and writes the reports; exits with the run's status.
    func finish(_ run: ConformanceRun, knownIDs: Set<String>, baseline: Baseline?) throws -> Never {
        var run = run
        run.baseline = baseline?.compare(with: run.results, knownIDs: knownIDs)
        do {
            if let junit { try JUnitReport.render(run).write(toFile: junit, atomically: true, encoding: .utf8) }
            if let html { try HTMLReport.render(run).write(toFile: html, atomically: true, encoding: .utf8) }
            if let writeBaseline { try Baseline.text(for: run).write(toFile: writeBaseline, atomically: true, encoding: .utf8) }
            print(json ? try ConformanceRunJSON(run).text() : TextReport.render(run, verbose: verbose), terminator: "")
            if let html, !json { print("HTML report: \(html)") }
        } catch {
            FileHandleOutput.standardError.write("decaf conform: cannot write a report: \(error)\n")
            Foundation.exit(2)
        }
        Foundation.exit(run.exitStatus)
    }
}
