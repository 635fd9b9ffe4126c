/// A frame's body as the frame model yields it: the bytes of it that arrived, how it is encoded,
/// and its TLV bytes when they can be read.
public struct BodyItem {
    public enum Encoding: Hashable, Sendable {
        /// TLV fields as they are.
        case plain
        /// A zlib stream (compress_type ZLIB, not empty).
        case zlib
        /// Encrypted (AES256): opaque, never parsed.
        case opaque
    }

    /// The body bytes that arrived, as a range of the frame.
    public let range: Range<Int>
    /// The length the header gives.
    public let declaredLength: UInt32
    public let encoding: Encoding
    /// The TLV bytes (inflated, for a zlib body), when they can be read.
    public let payload: UnsafeRawBufferPointer?

    @inlinable
    init(range: Range<Int>, declaredLength: UInt32, encoding: Encoding, payload: UnsafeRawBufferPointer?) {
        self.range = range
        self.declaredLength = declaredLength
        self.encoding = encoding
        self.payload = payload
    }

    /// True when all of the body arrived.
    public var isComplete: Bool { range.count == Int(declaredLength) }
}
