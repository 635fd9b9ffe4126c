import DecafConformance
import DecafDiagnosis
import DecafWire

/// A campaign as a run the conformance reports render (`--json`, `--junit`, `--html`), so a CI
/// reads a fuzz campaign as it reads `decaf conform`: one case for the campaign (what was sent,
/// from which seed, and what came back), then one failing case per finding with its minimized
/// input's verdict and the bytes exchanged. Exit statuses are conform's: 0 nothing found, 1
/// findings, 2 a target given up on (`FuzzProgress.targetLost`), 3 no input could be sent, 130
/// interrupted.
public enum FuzzReport {
    /// The run of a campaign that reached `state`, said in one line as `summary` (the line the
    /// terminal shows at the end).
    public static func run(of state: FuzzProgress, findings: [FuzzFinding], kind: ConformanceRun.Kind, target: String, settings: FuzzSettings,
                           corpus: [[UInt8]], summary: String) -> ConformanceRun {
        var results: [CaseResult] = []
        if state.inputs > 0 {
            let line = summary + " (seed \(settings.seed))" + ((state.targetLost ?? state.stoppedBy).map { "; stopped: \($0)" } ?? "")
            results.append(CaseResult(testCase: ConformanceCase("fuzz.campaign", [], .required, line, steps: []),
                                      verdict: Verdict(.pass, line), transcript: [], duration: state.elapsed))
        }
        for (index, finding) in findings.enumerated() {
            var verdict = finding.verdict
            verdict.kind = finding.oracle == .hang ? .timeout : .fail
            verdict.breaksMust = true
            let testCase = ConformanceCase(id(of: finding, at: index), finding.verdict.requirements, .required,
                                           finding.paragraph + repeats(of: finding, in: state), steps: [])
            results.append(CaseResult(testCase: testCase, verdict: verdict, transcript: finding.transcript, duration: .zero))
        }
        var run = ConformanceRun(kind: kind, target: target, identity: nil, catalogChecksum: checksum(of: corpus), results: results,
                                 duration: state.elapsed, stop: state.interrupted ? .interrupted : state.targetLost.map { .targetLost($0) })
        run.tool = "decaf fuzz"
        run.suiteVersion = "decaf-fuzz 1, seed \(settings.seed)"
        if !findings.isEmpty { run.diagnosis = diagnosis(of: findings) }
        return run
    }

    /// The findings as a diagnosis, which every report leads with: each catalogued mistake that
    /// gives a finding (alone, or with another) is a defect, which explains the findings it
    /// gives, the shortest of them its evidence; the others are unexplained.
    public static func diagnosis(of findings: [FuzzFinding]) -> Diagnosis {
        var defects: [Defect] = []
        var unexplained: [String] = []
        for (index, finding) in findings.enumerated() {
            let id = id(of: finding, at: index)
            if finding.defects.isEmpty { unexplained.append(id) }
            let evidence = Defect.Evidence(caseID: id, bytes: finding.input.count,
                                           expected: finding.verdict.expected.isEmpty ? finding.outcome.description : finding.verdict.expected,
                                           actual: finding.verdict.actual.isEmpty ? finding.verdict.reason : finding.verdict.actual)
            for mistake in finding.defects {
                if let known = defects.firstIndex(where: { $0.name == mistake.name }) {
                    defects[known].explains.append(id)
                    if evidence.bytes < defects[known].evidence.bytes { defects[known].evidence = evidence }
                } else {
                    defects.append(Defect(name: mistake.name, cause: mistake.cause, requirements: mistake.breaks, fix: mistake.fix,
                                          explains: [id], evidence: evidence))
                }
            }
        }
        return Diagnosis(defects: defects, failures: findings.count, unexplained: unexplained)
    }

    /// " 812 more inputs showed the same cause.", or nothing.
    static func repeats(of finding: FuzzFinding, in state: FuzzProgress) -> String {
        guard let count = state.repeats[finding.signature], count > 0 else { return "" }
        return " \(count) more input\(count == 1 ? "" : "s") showed the same \(finding.defects.isEmpty ? "failure" : "defect")."
    }

    /// The finding's case in the reports: `fuzz.finding-2-disagreement`.
    public static func id(of finding: FuzzFinding, at index: Int) -> String {
        "fuzz.finding-\(index + 1)-\(finding.oracle.rawValue)"
    }

    /// CRC-32 of the corpus, as `0x` and 8 hex digits: with the seed, it names the inputs a campaign sent.
    static func checksum(of corpus: [[UInt8]]) -> String {
        Hex.format(corpus.reduce(UInt32(0)) { crc, input in CRC32.checksum(input, continuing: crc) }, width: 8)
    }
}
