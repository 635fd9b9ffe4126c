/// What a decoder must make of a vector's bytes, as the brief decides it.
public enum VectorExpectation: Hashable, Sendable {
    /// Exactly this frame.
    case valid(ExpectedFrame)
    /// This error at this offset.
    case invalid(ExpectedRefusal)
    /// Either: the brief lets a receiver accept the bytes (as this frame) or refuse them (with this
    /// error at this offset).
    case acceptable(ExpectedFrame, ExpectedRefusal)

    /// The verdict, as the vector files write it.
    public var result: VectorResult {
        switch self {
        case .valid: .valid
        case .invalid: .invalid
        case .acceptable: .acceptable
        }
    }

    /// The frame a decoder that accepts the bytes must produce; nil when it must refuse them.
    public var frame: ExpectedFrame? {
        switch self {
        case let .valid(frame), let .acceptable(frame, _): frame
        case .invalid: nil
        }
    }

    /// The error a decoder that refuses the bytes must report; nil when it must accept them.
    public var refusal: ExpectedRefusal? {
        switch self {
        case let .invalid(refusal), let .acceptable(_, refusal): refusal
        case .valid: nil
        }
    }
}
