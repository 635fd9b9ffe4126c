import DecafDiagnosis
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
        var explained: Set<String> = []
        if let diagnosis = run.diagnosis, !diagnosis.defects.isEmpty {
            out += "\n" + Self.diagnosis(diagnosis)
            // Each explained failure is its defect's; the case list gives them only verbosely.
            if !verbose { explained = diagnosis.explainedCases }
        }
        let shown = run.results.filter { (verbose || !$0.verdict.kind.isPass || $0.verdict.kind == .passNonStrict || $0.isFlaky) && !explained.contains($0.testCase.id) }
        let causes = verbose ? [:] : Dictionary(grouping: shown.filter { !$0.isFlaky }, by: \.verdict).filter { $0.value.count >= sharedCause }
        var said = Set<Verdict>()
        for result in shown {
            if let sharing = causes[result.verdict] {
                if said.insert(result.verdict).inserted { out += "\n" + detail(sharing) }
            } else {
                out += "\n" + detail(result, withBytes: verbose)
            }
        }
        out += "\n" + footer(run)
        return out
    }

    /// The diagnosis: how many failures its defects explain, then each defect once, with the
    /// requirements, the failures it explains, the shortest as evidence, and the fix; then how
    /// many failures are left unexplained (listed below it as cases).
    static func diagnosis(_ diagnosis: Diagnosis) -> String {
        var out = diagnosis.headline + "\n"
        for defect in diagnosis.defects {
            out += "DEFECT \(defect.name): \(defect.cause)\n"
            for requirement in defect.requirements { out += "    \(requirement.rawValue): \(requirement.summary)\n" }
            let shown = defect.explains.prefix(3).joined(separator: ", ")
            let more = defect.explains.count > 3 ? " and \(defect.explains.count - 3) more" : ""
            out += "    explains \(defect.explains.count) failure\(defect.explains.count == 1 ? "" : "s"): \(shown)\(more)\n"
            let evidence = defect.evidence
            out += "    evidence: \(evidence.caseID) (\(evidence.bytes) bytes): expected \(evidence.expected.isEmpty ? "a pass" : evidence.expected); got \(evidence.actual)\n"
            out += "    fix: \(defect.fix)\n"
        }
        if !diagnosis.unexplained.isEmpty {
            out += "UNEXPLAINED \(diagnosis.unexplained.count) failure\(diagnosis.unexplained.count == 1 ? "" : "s"): no catalogued mistake gives \(diagnosis.unexplained.count == 1 ? "its verdict" : "their verdicts"); below\n"
        }
        return out
    }

    /// As many cases as this with one verdict are one cause, said once.
    static let sharedCause = 3

    /// Cases that failed for one cause: the cause once, then the cases.
    static func detail(_ sharing: [CaseResult]) -> String {
        let verdict = sharing[0].verdict
        var out = "\(verdict.kind.rawValue.uppercased()) \(sharing.count) cases, one cause:\n"
        out += "    \(verdict.reason)\n"
        if !verdict.expected.isEmpty { out += "    expected: \(verdict.expected)\n" }
        if !verdict.actual.isEmpty { out += "    actual:   \(verdict.actual)\n" }
        for requirement in verdict.requirements { out += "    \(requirement.rawValue): \(requirement.summary)\n" }
        out += "    cases: " + sharing.map { "\($0.testCase.id) [\($0.levelLabel)]" }.joined(separator: ", ") + "\n"
        return out
    }

    /// One case: verdict, ID, level, reason, what was expected and seen, the requirements' text and,
    /// when asked, the bytes both ways.
    public static func detail(_ result: CaseResult, withBytes: Bool) -> String {
        let verdict = result.verdict
        var out = "\(verdict.kind.rawValue.uppercased()) \(result.testCase.id) [\(result.levelLabel)] \(result.testCase.summary)\n"
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
        if case let .targetLost(reason) = run.stop { out += "    \(reason)\n" }
        let unexpected = run.unexpectedFailures
        let explained = run.diagnosis?.explainedCases ?? []
        let others = unexpected.filter { !explained.contains($0.testCase.id) }
        if others.count < unexpected.count {
            out += "required cases failing: \(unexpected.count), \(unexpected.count - others.count) of them explained by the defects above"
            out += (others.isEmpty ? "" : "; the others: " + others.map(\.testCase.id).joined(separator: ", ")) + "\n"
        } else if !unexpected.isEmpty {
            out += "required cases failing: " + unexpected.map(\.testCase.id).joined(separator: ", ") + "\n"
        }
        if let baseline = run.baseline {
            let expected = run.results.filter { $0.verdict.kind.isFailure && $0.countsAsRequired && baseline.expects($0.testCase.id) }.count
            out += "against the baseline: \(expected) expected failure\(expected == 1 ? "" : "s"), \(unexpected.count) new\n"
            for id in baseline.nowPassing { out += "baseline entry \(id) now passes: remove it from the baseline\n" }
            for id in baseline.unknown { out += "baseline entry \(id) matches no case\n" }
        }
        for result in run.flakyResults {
            out += "flaky: \(result.testCase.id) (\(result.runs.map(\.rawValue).joined(separator: ", ")))\n"
        }
        return out
    }
}
