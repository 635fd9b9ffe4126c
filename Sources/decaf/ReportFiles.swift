import ArgumentParser
import DecafConformance
import DecafDissect
import Foundation

/// The reports a run can be given as, for `decaf conform` and `decaf fuzz` alike: JSON on standard
/// output instead of text, a JUnit XML file, a self-contained HTML file.
struct ReportFiles: ParsableArguments {
    @Flag(help: "Print the run as JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"), transform: PathArgument.output)
    var junit: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report to this file.", valueName: "file"), transform: PathArgument.output)
    var html: String?

    /// Prints the run (as JSON with `--json`, else as `text`) and writes the files asked for. The
    /// run is printed whatever becomes of the files; a file that cannot be written (the options
    /// were checked at the start, so a disk that filled or a directory removed since) is one line
    /// after it, exit status 2.
    func emit(_ run: ConformanceRun, text: String) {
        var unwritten: [String] = []
        if let junit { write(JUnitReport.render(run), to: junit, failures: &unwritten) }
        let htmlWritten = html.map { write(HTMLReport.render(run), to: $0, failures: &unwritten) } ?? false
        do {
            print(json ? try ConformanceRunJSON(run).text() : text, terminator: "")
        } catch {
            unwritten.append("the JSON report: \(error)")
        }
        if let html, htmlWritten, !json { print("HTML report: \(html)") }
        guard unwritten.isEmpty else {
            FileHandleOutput.standardError.write("\(run.tool): cannot write a report: \(unwritten.joined(separator: "; "))\n")
            Foundation.exit(2)
        }
    }

    /// Writes `report` to `path`, in directories made for it; whether it was, and why not in `failures`.
    @discardableResult
    private func write(_ report: String, to path: String, failures: inout [String]) -> Bool {
        do {
            try PathArgument.makeDirectories(for: path)
            try report.write(toFile: path, atomically: true, encoding: .utf8)
            return true
        } catch {
            failures.append("\(path): \(error.localizedDescription)")
            return false
        }
    }
}
