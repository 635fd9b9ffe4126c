import ArgumentParser
import DecafConformance
import DecafDissect
import Foundation

/// The reports a run can be given as, for `decaf conform` and `decaf fuzz` alike: JSON on standard
/// output instead of text, a JUnit XML file, a self-contained HTML file.
struct ReportFiles: ParsableArguments {
    @Flag(help: "Print the run as JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"), transform: PathArgument.parse)
    var junit: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report to this file.", valueName: "file"), transform: PathArgument.parse)
    var html: String?

    /// Writes the files asked for and prints the run: as JSON with `--json`, else as `text` (and
    /// where the HTML report is). A report that cannot be written is one line, exit status 2.
    func emit(_ run: ConformanceRun, text: String) {
        do {
            if let junit { try JUnitReport.render(run).write(toFile: junit, atomically: true, encoding: .utf8) }
            if let html { try HTMLReport.render(run).write(toFile: html, atomically: true, encoding: .utf8) }
            print(json ? try ConformanceRunJSON(run).text() : text, terminator: "")
            if let html, !json { print("HTML report: \(html)") }
        } catch {
            FileHandleOutput.standardError.write("\(run.tool): cannot write a report: \(error)\n")
            Foundation.exit(2)
        }
    }
}
