import DecafWire

/// What the brief makes of a byte stream: the oracle that says, for each input, whether a
/// decoder must accept it (and as how many frames) or refuse it, with which error, which
/// requirement and at which offset. DecafWire decides it, as `decaf conform` does.
public enum DecodeOutcome: Hashable, Sendable, CustomStringConvertible {
    /// Every byte decodes: this many frames.
    case accepted(frames: Int)
    /// The stream breaks a rule: the first error a receiver must report.
    case refused(ErrorCode, RequirementID, offset: Int)

    /// The outcome of `bytes` decoded with `options`, to the end of the stream.
    public init(of bytes: [UInt8], options: DecodeOptions = DecodeOptions()) {
        var decoder = FrameDecoder(options: options)
        decoder.append(bytes)
        var frames = 0
        do {
            while try decoder.nextFrame() != nil { frames += 1 }
            try decoder.finish()
            self = .accepted(frames: frames)
        } catch {
            self = .refused(error.code, error.requirement, offset: error.offset)
        }
    }

    public var isAccepted: Bool {
        if case .accepted = self { true } else { false }
    }

    public var description: String {
        switch self {
        case let .accepted(frames): "accepts as \(frames) frame\(frames == 1 ? "" : "s")"
        case let .refused(code, requirement, offset): "refuses with \(code.name) (\(requirement.rawValue)) at offset \(offset)"
        }
    }
}
