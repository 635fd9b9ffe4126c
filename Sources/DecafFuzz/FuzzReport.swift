import DecafConformance
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
            let testCase = ConformanceCase("fuzz.finding-\(index + 1)-\(finding.oracle.rawValue)", finding.verdict.requirements, .required,
                                           finding.paragraph, steps: [])
            results.append(CaseResult(testCase: testCase, verdict: verdict, transcript: finding.transcript, duration: .zero))
        }
        var run = ConformanceRun(kind: kind, target: target, identity: nil, catalogChecksum: checksum(of: corpus), results: results,
                                 duration: state.elapsed, stop: state.interrupted ? .interrupted : state.targetLost.map { .targetLost($0) })
        run.tool = "decaf fuzz"
        run.suiteVersion = "decaf-fuzz 1, seed \(settings.seed)"
        return run
    }

    /// CRC-32 of the corpus, as `0x` and 8 hex digits: with the seed, it names the inputs a campaign sent.
    static func checksum(of corpus: [[UInt8]]) -> String {
        Hex.format(corpus.reduce(UInt32(0)) { crc, input in CRC32.checksum(input, continuing: crc) }, width: 8)
    }
}
