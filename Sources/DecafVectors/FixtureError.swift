/// A defect in the vector catalog that would make the fixtures ambiguous.
public enum FixtureError: Error, Hashable, Sendable, CustomStringConvertible {
    case duplicateTcId(Int)
    case duplicateGroup(String)

    public var description: String {
        switch self {
        case let .duplicateTcId(id): "tcId \(id) is used twice"
        case let .duplicateGroup(name): "group name \(name) is used twice"
        }
    }
}
