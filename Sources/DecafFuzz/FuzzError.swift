/// Why a campaign could not run at all.
public enum FuzzError: Error, Sendable, CustomStringConvertible {
    /// The testee command cannot be started (not found, not executable).
    case cannotStart(String)
    /// The corpus holds no input the testee protocol can ask about.
    case emptyCorpus

    public var description: String {
        switch self {
        case let .cannotStart(why): why
        case .emptyCorpus: "the corpus holds no frame to start from"
        }
    }
}
