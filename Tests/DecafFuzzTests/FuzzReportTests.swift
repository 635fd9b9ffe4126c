@testable import DecafConformance
@testable import DecafFuzz
import DecafWire
import Testing

/// A campaign as a conformance run: the campaign case, one failing case per finding, and conform's
/// exit statuses.
@Suite("fuzz reports")
struct FuzzReportTests {
    static func run(inputs: Int, findings: [FuzzFinding] = [], interrupted: Bool = false) -> ConformanceRun {
        var state = FuzzProgress()
        state.inputs = inputs
        state.findings = findings.count
        state.interrupted = interrupted
        return FuzzReport.run(of: state, findings: findings, kind: .client, target: "a client", settings: FuzzSettings(seed: 4), corpus: [[1, 2, 3]],
                              summary: "fuzz client: \(inputs) inputs")
    }

    static let hang = FuzzFinding(oracle: .hang, signature: "hang", input: ServerCaseTests.frame(.data), original: [], mutations: [],
                                  outcome: .accepted(frames: 1), verdict: Verdict(.pass, "late", requirements: [.ex5]), lastWords: "",
                                  inputsBefore: 9, elapsed: .seconds(1))

    @Test("no finding: one passing campaign case naming the seed, exit 0; nothing sent: no case, exit 3")
    func clean() {
        let run = Self.run(inputs: 10)
        #expect(run.results.map(\.testCase.id) == ["fuzz.campaign"])
        #expect(run.results[0].verdict.kind == .pass && run.results[0].testCase.summary.contains("(seed 4)"))
        #expect(run.tool == "decaf fuzz" && run.exitStatus == 0)
        #expect(Self.run(inputs: 0).results.isEmpty && Self.run(inputs: 0).exitStatus == 3)
    }

    @Test("a finding is a failing required case (a hang a timeout) that breaks a MUST, exit 1; interrupted, exit 130")
    func findings() {
        let run = Self.run(inputs: 10, findings: [Self.hang])
        let finding = run.results[1]
        #expect(finding.testCase.id == "fuzz.finding-1-hang" && finding.verdict.kind == .timeout && finding.verdict.breaksMust)
        #expect(finding.testCase.requirements == [.ex5] && finding.testCase.summary == Self.hang.paragraph)
        #expect(run.exitStatus == 1)
        #expect(Self.run(inputs: 10, findings: [Self.hang], interrupted: true).exitStatus == 130)
    }

    @Test("'Found as' says how the input was first made, and that what is shown and saved was then minimized")
    func foundAsThenMinimized() {
        let minimized = ServerCaseTests.frame(.data)
        let finding = FuzzFinding(oracle: .crash, signature: "crash", input: minimized, original: minimized + Array(repeating: 0, count: 12),
                                  mutations: [.flippedBit(at: 30)], outcome: .accepted(frames: 1), verdict: Verdict(.fail, "it died"), lastWords: "",
                                  inputsBefore: 3, elapsed: .seconds(1))
        #expect(finding.paragraph.contains("Found as: ") && finding.paragraph.contains(", then minimized from \(minimized.count + 12) to \(minimized.count) bytes."),
                "\(finding.paragraph)")
    }
}
