/// How strongly a requirement binds a role, in the spec's words: a MUST is checked by a required
/// case, a SHOULD by a recommended one, a MAY by an optional one.
public enum Obligation: String, CaseIterable, Sendable, Hashable, Codable {
    case must = "MUST"
    case should = "SHOULD"
    case may = "MAY"

    /// The case level that checks this obligation.
    public var level: ConformanceLevel {
        switch self {
        case .must: .required
        case .should: .recommended
        case .may: .optional
        }
    }
}
