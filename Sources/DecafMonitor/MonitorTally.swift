import DecafWire

/// How often each end met each requirement, and how often the capture could not say: the counts
/// behind a report's passes and not-judged lines. Failures are listed, not counted here.
public struct MonitorTally: Sendable, Hashable {
    public struct Key: Sendable, Hashable, Comparable {
        public var end: MonitorEnd
        public var requirement: RequirementID

        public init(end: MonitorEnd, requirement: RequirementID) {
            self.end = end
            self.requirement = requirement
        }

        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.end, RequirementID.allCases.firstIndex(of: lhs.requirement) ?? 0) < (rhs.end, RequirementID.allCases.firstIndex(of: rhs.requirement) ?? 0)
        }
    }

    public struct Count: Sendable, Hashable {
        public var passed = 0
        public var notJudged = 0
        /// Why the first case not judged was not, for the report.
        public var notJudgedBecause: String?
    }

    /// The counts, one entry per end and requirement met, in the order first met: a handful per
    /// connection, searched in order (a frame's pass costs no hashing).
    private var entries: [(key: Key, count: Count)] = []

    /// The counts by end and requirement.
    public var counts: [Key: Count] {
        Dictionary(entries.map { ($0.key, $0.count) }, uniquingKeysWith: { first, _ in first })
    }

    public init() {}

    /// The entry of `end` and `requirement`, made when first met.
    private mutating func entry(_ end: MonitorEnd, _ requirement: RequirementID) -> Int {
        if let index = entries.firstIndex(where: { $0.key.end == end && $0.key.requirement == requirement }) { return index }
        entries.append((Key(end: end, requirement: requirement), Count()))
        return entries.count - 1
    }

    mutating func pass(_ end: MonitorEnd, _ requirement: RequirementID) {
        entries[entry(end, requirement)].count.passed += 1
    }

    mutating func notJudged(_ end: MonitorEnd, _ requirement: RequirementID, because reason: String, count: Int = 1) {
        guard count > 0 else { return }
        let index = entry(end, requirement)
        entries[index].count.notJudged += count
        if entries[index].count.notJudgedBecause == nil { entries[index].count.notJudgedBecause = reason }
    }

    /// Adds another tally's counts (another connection's) to this one.
    public mutating func add(_ other: MonitorTally) {
        for (key, count) in other.entries {
            let index = entry(key.end, key.requirement)
            entries[index].count.passed += count.passed
            entries[index].count.notJudged += count.notJudged
            if entries[index].count.notJudgedBecause == nil { entries[index].count.notJudgedBecause = count.notJudgedBecause }
        }
    }

    public static func == (lhs: MonitorTally, rhs: MonitorTally) -> Bool {
        lhs.counts == rhs.counts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(counts)
    }
}
