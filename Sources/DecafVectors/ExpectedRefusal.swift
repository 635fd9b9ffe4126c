import DecafWire

/// The error a decoder must report when it refuses a vector's bytes, and where (brief section 8).
public struct ExpectedRefusal: Hashable, Sendable, CustomStringConvertible {
    public var error: ErrorCode
    public var offset: Int

    public init(_ error: ErrorCode, at offset: Int) {
        self.error = error
        self.offset = offset
    }

    /// `CHECKSUM_MISMATCH at offset 24`.
    public var description: String { "\(error.name) at offset \(offset)" }
}
