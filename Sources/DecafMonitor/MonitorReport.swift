import DecafCapture
import DecafWire

/// What `decaf monitor` says about a capture: each defect once (an end's cause of failure, with
/// the first frames that show it and how often and where it recurs), then every requirement
/// judged with its count of passes and of cases the capture could not show, and the result. Text
/// for a person, one JSON object for a program.
public struct MonitorReport: Sendable, Encodable {
    /// One cause of failure of one end: every failure it explains, said once.
    public struct Defect: Sendable, Encodable {
        public var end: MonitorEnd
        public var requirement: RequirementID
        public var level: MonitorVerdict.Level
        public var cause: String
        /// Failures it explains.
        public var count: Int
        /// The connections they are in (the first 20), and how many there are.
        public var connections: [Int]
        public var connectionCount: Int
        /// The first, with its message and evidence.
        public var first: MonitorVerdict
    }

    public struct Requirement: Sendable, Encodable {
        public var end: MonitorEnd
        public var requirement: RequirementID
        public var level: MonitorVerdict.Level
        public var passed: Int
        public var failed: Int
        public var notJudged: Int
        /// Why the first case not judged was not.
        public var notJudgedBecause: String?
    }

    public var connections: Int
    public var frames: Int
    public var defects: [Defect]
    public var failures: [MonitorVerdict]
    public var failuresNotListed: Int
    /// The sessions' connections in time, for the HTML report (not in the JSON).
    public var timeline: SessionTimeline
    public var requirements: [Requirement]
    /// What a mobile team measures: handshakes, round trips, deliveries, resends, reconnects.
    public var metrics: FieldMetricsReport
    /// The capture file is damaged or cut short: everything before it was judged.
    public var captureError: String?
    /// True when an end broke a MUST.
    public var failed: Bool

    public init(_ monitor: CaptureMonitor) {
        connections = monitor.connectionCount
        frames = monitor.frames
        failures = monitor.failures
        metrics = FieldMetricsReport(monitor.metrics)
        defects = Self.defects(of: monitor.failures)
        failuresNotListed = monitor.failuresNotListed
        timeline = monitor.timeline
        captureError = monitor.captureError.map { "\($0)" }
        var failedCounts: [MonitorTally.Key: Int] = [:]
        for failure in monitor.failures { failedCounts[MonitorTally.Key(end: failure.end, requirement: failure.requirement), default: 0] += 1 }
        let keys = Set(monitor.tally.counts.keys).union(failedCounts.keys).sorted()
        requirements = keys.map { key in
            let count = monitor.tally.counts[key] ?? MonitorTally.Count()
            return Requirement(end: key.end, requirement: key.requirement, level: MonitorCatalog.level(of: key.requirement), passed: count.passed, failed: failedCounts[key] ?? 0,
                               notJudged: count.notJudged, notJudgedBecause: count.notJudgedBecause)
        }
        failed = monitor.failures.contains { $0.level == .required } || monitor.failuresNotListed > 0
        names = Dictionary(monitor.connections.map { ($0.index, $0.description) }, uniquingKeysWith: { first, _ in first })
    }

    /// Each listed connection's description, by index.
    private let names: [Int: String]

    enum CodingKeys: String, CodingKey {
        case connections, frames, defects, failures, failuresNotListed, requirements, metrics, captureError, failed
    }

    /// One failure as a line of its own, printed as its connection ends: where, who, what.
    public static func line(for verdict: MonitorVerdict, in connection: TCPConnection) -> String {
        "connection \(connection): \(verdict.level == .required ? "FAIL" : "WARN") \(verdict.end) \(verdict.requirement.rawValue): \(verdict.message)"
    }

    /// The report for a person.
    public var lines: [String] {
        var lines = ["\(connections) connection(s), \(frames) frame(s)"]
        if let captureError { lines.append("The capture is damaged or cut short: \(captureError); everything before it was judged.") }
        for defect in defects {
            let level = defect.level == .required ? "FAIL" : "WARN"
            lines.append("")
            lines.append("\(level) \(defect.end) \(defect.requirement.rawValue): \(defect.first.message)")
            let places = defect.connections.prefix(3).map { names[$0] ?? "#\($0)" }
            let more = defect.count > 1 ? "\(defect.count) times" : "once"
            let where_ = defect.connections.count == 1 ? "connection \(places[0])"
                : "\(defect.connectionCount) connections: " + places.joined(separator: ", ") + (defect.connectionCount > places.count ? ", …" : "")
            lines.append("    \(more) (\(defect.cause)), in \(where_)")
        }
        if failuresNotListed > 0 { lines.append("  … and \(failuresNotListed) more failure(s), not listed") }
        lines.append("")
        lines.append("requirement      end     passed  failed  not judged")
        for row in requirements {
            let name = row.requirement.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
            let end = row.end.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            var line = "\(name) \(end) \(Self.column(row.passed, 6))  \(Self.column(row.failed, 6))  \(Self.column(row.notJudged, 10))"
            if let because = row.notJudgedBecause { line += "  (\(because))" }
            lines.append(line)
        }
        lines.append("")
        lines += metrics.lines
        lines.append("")
        lines.append(verdictLine)
        return lines
    }

    /// The result in one line: which ends broke which requirements.
    public var verdictLine: String {
        let broken = MonitorEnd.allCases.compactMap { end -> String? in
            let names = requirements.filter { $0.end == end && $0.failed > 0 }
                .map { "\($0.requirement.rawValue) (\($0.failed)\($0.level == .recommended ? ", a SHOULD" : ""))" }
            return names.isEmpty ? nil : "the \(end) broke " + names.joined(separator: ", ")
        }
        if broken.isEmpty { return "PASS: no end broke a requirement the capture shows" }
        return (failed ? "FAIL: " : "PASS with warnings: ") + broken.joined(separator: "; ")
    }

    /// The failures grouped by end, requirement and cause, in the order first found.
    static func defects(of failures: [MonitorVerdict]) -> [Defect] {
        var defects: [Defect] = []
        var index: [String: Int] = [:]
        /// The connection of each defect's last failure.
        var seen: [Int: Int] = [:]
        for failure in failures {
            let key = "\(failure.end) \(failure.requirement.rawValue) \(failure.cause)"
            guard let at = index[key] else {
                index[key] = defects.count
                seen[defects.count] = failure.connection
                defects.append(Defect(end: failure.end, requirement: failure.requirement, level: failure.level, cause: failure.cause, count: 1,
                                      connections: [failure.connection], connectionCount: 1, first: failure))
                continue
            }
            defects[at].count += 1
            // A connection's failures come together: a new connection is one not seen last.
            if seen[at] != failure.connection {
                defects[at].connectionCount += 1
                if defects[at].connections.count < 20 { defects[at].connections.append(failure.connection) }
            }
            seen[at] = failure.connection
        }
        return defects
    }

    private static func column(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
