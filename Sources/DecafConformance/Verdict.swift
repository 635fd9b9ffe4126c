import DecafWire

/// A case's verdict, explaining itself: why, what was expected and what happened, and the
/// requirements concerned (for a failure, those the target broke).
public struct Verdict: Hashable, Sendable {
    public var kind: VerdictKind
    public var reason: String
    public var expected: String
    public var actual: String
    /// Each once, in the order first given.
    public var requirements: [RequirementID] {
        didSet { if Set(requirements).count != requirements.count { requirements = Self.once(requirements) } }
    }
    /// A failure that breaks a MUST the case was not written to check (the target's own bytes break
    /// the protocol, or it crashed): it counts as a required failure whatever the case's level.
    public var breaksMust: Bool

    public init(_ kind: VerdictKind, _ reason: String, expected: String = "", actual: String = "", requirements: [RequirementID] = [],
                breaksMust: Bool = false) {
        self.kind = kind
        self.reason = reason
        self.expected = expected
        self.actual = actual
        self.requirements = Self.once(requirements)
        self.breaksMust = breaksMust
    }

    /// `requirements` without repeats, in order.
    private static func once(_ requirements: [RequirementID]) -> [RequirementID] {
        var seen: Set<RequirementID> = []
        return requirements.filter { seen.insert($0).inserted }
    }
}

extension Verdict {
    /// Whether `other` is this verdict, give or take the timing of a network: a model judged on a
    /// virtual clock and a target judged over loopback say "followed up after 200 ms" and
    /// "followed up after 231 ms" of the same behaviour, never "after 1653 ms". Kind,
    /// requirements, every word and every count must agree; each duration within
    /// `Verdict.durationTolerance`.
    public func isSame(as other: Verdict) -> Bool {
        kind == other.kind && requirements == other.requirements && Self.agree(reason, other.reason) && Self.agree(expected, other.expected)
            && Self.agree(actual, other.actual)
    }

    /// How far two durations of one behaviour may lie apart: 100 ms and a quarter of the longer.
    static func durationTolerance(_ a: Double, _ b: Double) -> Double { 100 + max(a, b) / 4 }

    /// Whether two texts are the same but for durations ("1503 ms", "2.5 s") that agree.
    private static func agree(_ one: String, _ other: String) -> Bool {
        one == other || DurationMentions(one).agree(with: DurationMentions(other), within: durationTolerance)
    }
}
