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

    public private(set) var counts: [Key: Count] = [:]

    public init() {}

    mutating func pass(_ end: MonitorEnd, _ requirement: RequirementID) {
        counts[Key(end: end, requirement: requirement), default: Count()].passed += 1
    }

    mutating func notJudged(_ end: MonitorEnd, _ requirement: RequirementID, because reason: String, count: Int = 1) {
        guard count > 0 else { return }
        let key = Key(end: end, requirement: requirement)
        counts[key, default: Count()].notJudged += count
        if counts[key]?.notJudgedBecause == nil { counts[key]?.notJudgedBecause = reason }
    }

    /// Adds another tally's counts (another connection's) to this one.
    public mutating func add(_ other: MonitorTally) {
        for (key, count) in other.counts {
            counts[key, default: Count()].passed += count.passed
            counts[key, default: Count()].notJudged += count.notJudged
            if counts[key]?.notJudgedBecause == nil { counts[key]?.notJudgedBecause = count.notJudgedBecause }
        }
    }
}
