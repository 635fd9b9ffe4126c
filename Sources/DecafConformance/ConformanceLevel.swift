/// How strongly the spec demands what a case checks: required for MUST, recommended for SHOULD,
/// optional for MAY. Only required cases decide the exit status of a run.
public enum ConformanceLevel: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case required
    case recommended
    case optional

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    /// Required first.
    private var rank: Int {
        switch self {
        case .required: 0
        case .recommended: 1
        case .optional: 2
        }
    }
}
