import DecafWire

/// The terminal report: every case that did not pass cleanly (or every case, verbosely) with its
/// reason, expectation and the requirements' text, the bytes both ways when verbose, then the
/// summary.
public enum TextReport {
    public static func render(_ run: ConformanceRun, verbose: Bool = false) -> String {
        var out = "\(run.suiteVersion), catalog \(run.catalogChecksum), target \(run.target)\n"
        if let identity = run.identity {
            out += "target version \(identity.version), features \(identity.features) (\(identity.note))\n"
        }
        for result in run.results where verbose || !result.verdict.kind.isPass || result.verdict.kind == .passNonStrict || result.isFlaky {
            out += "\n" + detail(result, withBytes: verbose)
        }
        out += "\n" + footer(run)
        return out
    }

    /// One case: verdict, ID, level, reason, what was expected and seen, the requirements' text and,
    /// when asked, the bytes both ways.
    public static func detail(_ result: CaseResult, withBytes: Bool) -> String {
        let verdict = result.verdict
        var out = "\(verdict.kind.rawValue.uppercased()) \(result.testCase.id) [\(result.testCase.level.rawValue)] \(result.testCase.summary)\n"
        out += "    \(verdict.reason)\n"
        if !verdict.expected.isEmpty { out += "    expected: \(verdict.expected)\n" }
        if !verdict.actual.isEmpty { out += "    actual:   \(verdict.actual)\n" }
        for requirement in verdict.requirements.isEmpty ? result.testCase.requirements : verdict.requirements {
            out += "    \(requirement.rawValue): \(requirement.summary)\n"
        }
        if result.isFlaky { out += "    flaky: runs gave \(result.runs.map(\.rawValue).joined(separator: ", "))\n" }
        if withBytes { out += TranscriptRenderer.lines(result.transcript).map { "    " + $0 + "\n" }.joined() }
        return out
    }

    /// The summary, the baseline's news and the flaky cases.
    public static func footer(_ run: ConformanceRun) -> String {
        var out = run.summaryLine + "\n"
        let unexpected = run.unexpectedFailures
        if !unexpected.isEmpty {
            out += "required cases failing: " + unexpected.map(\.testCase.id).joined(separator: ", ") + "\n"
        }
        if let baseline = run.baseline {
            for id in baseline.nowPassing { out += "baseline entry \(id) now passes: remove it from the baseline\n" }
            for id in baseline.unknown { out += "baseline entry \(id) matches no case\n" }
        }
        for result in run.flakyResults {
            out += "flaky: \(result.testCase.id) (\(result.runs.map(\.rawValue).joined(separator: ", ")))\n"
        }
        return out
    }
}
