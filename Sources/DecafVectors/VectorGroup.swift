import DecafWire

/// Vectors that share the decode options a receiver must use for them.
public struct VectorGroup: Hashable, Sendable {
    /// Stable name; the vectors' `.bin` files live in `Fixtures/frames/<name>/`.
    public var name: String
    public var comment: String
    public var options: DecodeOptions
    public var tests: [FrameVector]

    public init(name: String, comment: String, options: DecodeOptions = DecodeOptions(), tests: [FrameVector]) {
        self.name = name
        self.comment = comment
        self.options = options
        self.tests = tests
    }
}
