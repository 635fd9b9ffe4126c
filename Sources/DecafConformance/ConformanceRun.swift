import DecafDiagnosis
import DecafWire

/// A whole run: what was tested, with which catalog, and every case's result. Every report is a
/// rendering of this.
public struct ConformanceRun: Sendable {
    /// What the implementation under test is.
    public enum Kind: String, Sendable, Codable {
        case server
        case decoder
        case client
        /// Both ends of the traffic in a capture, judged by `decaf monitor`.
        case capture
    }

    public var kind: Kind
    /// The command whose run this is, as reports name it: `decaf conform` (or `decaf fuzz`, whose
    /// campaigns are rendered as runs too).
    public var tool = "decaf conform"
    /// The server's address, or the testee's command line.
    public var target: String
    /// What the server showed of itself (server runs only).
    public var identity: TargetIdentity?
    public var suiteVersion = ConformanceCatalog.suiteVersion
    public var catalogChecksum: String
    public var results: [CaseResult]
    public var duration: Duration
    /// The expected failures the run was judged against, and what became of them.
    public var baseline: BaselineComparison?
    /// The cases selected to run; `results` has fewer when the run stopped early.
    public var planned: Int
    /// Why the run stopped before every case selected ran; nil when it ran them all.
    public var stop: Stop?
    /// The defects that explain the failures (every suite has a catalog of mistakes).
    public var diagnosis: Diagnosis?
    /// How long the diagnosis took, part of `duration`: what it costs a run.
    public var diagnosisDuration: Duration = .zero

    /// Diagnoses the run with `diagnose`, timing it.
    public mutating func diagnose(_ diagnose: (ConformanceRun) -> Diagnosis) {
        let started = ContinuousClock.now
        diagnosis = diagnose(self)
        diagnosisDuration = ContinuousClock.now - started
        duration += diagnosisDuration
    }

    /// Why a run stopped early. Its results are those reached before.
    public enum Stop: Hashable, Sendable, CustomStringConvertible {
        /// The user stopped it (Ctrl-C, SIGINT or SIGTERM).
        case interrupted
        /// The target stopped answering, or the testee could no longer be used: why.
        case targetLost(String)

        public var description: String {
            switch self {
            case .interrupted: "interrupted"
            case let .targetLost(reason): "stopped: \(reason)"
            }
        }
    }

    public init(kind: Kind, target: String, identity: TargetIdentity?, catalogChecksum: String, results: [CaseResult], duration: Duration,
                planned: Int? = nil, stop: Stop? = nil) {
        self.kind = kind
        self.target = target
        self.identity = identity
        self.catalogChecksum = catalogChecksum
        self.results = results
        self.duration = duration
        self.planned = planned ?? results.count
        self.stop = stop
    }

    /// Whether the run ran every case it selected.
    public var isComplete: Bool { stop == nil }

    /// How many cases got each kind of verdict.
    public var counts: [VerdictKind: Int] {
        results.reduce(into: [:]) { $0[$1.verdict.kind, default: 0] += 1 }
    }

    /// `N cases: X passed, Y failed, ...`, the line a terminal and a CI log show.
    public var summaryLine: String {
        let counts = counts
        let parts: [(VerdictKind, String)] = [
            (.pass, "passed"), (.passNonStrict, "passed non-strictly"), (.fail, "failed"), (.timeout, "timed out"),
            (.unsupported, "unsupported"), (.harnessError, "harness errors"),
        ]
        let shown = parts.compactMap { kind, word in counts[kind].map { "\($0) \(word)" } }
        let verdicts = shown.isEmpty ? "none ran" : shown.joined(separator: ", ")
        guard let stop else { return "\(results.count) case\(results.count == 1 ? "" : "s"): " + verdicts }
        return "\(stop.headline) after \(results.count) of \(planned) cases: \(verdicts)"
    }

    /// Results that count against the target: failures of required cases not in the baseline.
    public var unexpectedFailures: [CaseResult] {
        results.filter { $0.verdict.kind.isFailure && $0.countsAsRequired && baseline?.expects($0.testCase.id) != true }
    }

    /// Cases whose repeated runs disagreed.
    public var flakyResults: [CaseResult] { results.filter(\.isFlaky) }

    /// 130: interrupted (as a shell reports SIGINT); 0: every required case passed (or failed as
    /// the baseline expects); 1: failures; 2: the harness failed, or the target stopped answering;
    /// 3: nothing ran.
    public var exitStatus: Int32 {
        switch stop {
        case .interrupted: return 130
        case .targetLost: return 2
        case nil: break
        }
        if results.isEmpty { return 3 }
        if results.contains(where: { $0.verdict.kind == .harnessError }) { return 2 }
        return unexpectedFailures.isEmpty ? 0 : 1
    }
}

extension ConformanceRun.Stop {
    /// How the summary line starts: "INTERRUPTED", "STOPPED".
    var headline: String {
        switch self {
        case .interrupted: "INTERRUPTED"
        case .targetLost: "STOPPED"
        }
    }
}
