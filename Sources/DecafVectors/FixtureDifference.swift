/// How a fixtures directory differs from what the generator makes.
public enum FixtureDifference: Hashable, Sendable, CustomStringConvertible {
    /// The generator makes this file but the directory lacks it.
    case missing(String)
    /// The file's bytes differ from the generator's.
    case changed(String)
    /// The directory holds a file the generator no longer makes.
    case unexpected(String)

    public var description: String {
        switch self {
        case let .missing(path): "missing:    \(path)"
        case let .changed(path): "changed:    \(path)"
        case let .unexpected(path): "unexpected: \(path)"
        }
    }
}
