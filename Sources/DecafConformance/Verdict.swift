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
