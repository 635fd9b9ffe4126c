import DecafConformance
import DecafMonitor

/// `decaf monitor`'s report as a conformance run, so conform's JUnit and HTML reports render it:
/// one case per end and requirement judged (`monitor.server.ex-1`), failed with its first defect
/// and counts, passed, or skipped when the capture could not show it.
enum MonitorRun {
    static func run(_ report: MonitorReport, capture: String, duration: Duration) -> ConformanceRun {
        let results = report.requirements.map { row -> CaseResult in
            let id = "monitor.\(row.end.rawValue).\(row.requirement.rawValue.lowercased())"
            let level: ConformanceLevel = row.level == .required ? .required : .recommended
            let testCase = ConformanceCase(id, [row.requirement], level, "the \(row.end) keeps \(row.requirement.rawValue) in every exchange the capture shows", steps: [])
            let counts = "\(row.passed) passed, \(row.failed) failed, \(row.notJudged) not judged"
            let verdict: Verdict
            if row.failed > 0 {
                let first = report.defects.first { $0.end == row.end && $0.requirement == row.requirement }
                verdict = Verdict(.fail, (first.map { "\($0.first.message) (\($0.cause))" } ?? "failed") + "; \(counts)", requirements: [row.requirement])
            } else if row.passed > 0 {
                verdict = Verdict(.pass, counts, requirements: [row.requirement])
            } else {
                verdict = Verdict(.unsupported, "not judged: \(row.notJudgedBecause ?? "the capture does not show it"); \(counts)", requirements: [row.requirement])
            }
            return CaseResult(testCase: testCase, verdict: verdict, transcript: [], duration: .zero)
        }
        var run = ConformanceRun(kind: .capture, target: capture, identity: nil, catalogChecksum: "-", results: results, duration: duration)
        run.tool = "decaf monitor"
        run.suiteVersion = "decaf-monitor 1"
        return run
    }
}
