/// A frame's body as the frame model yields it: the bytes of it that arrived, how it is encoded,
/// and its TLV bytes when they can be read.
public struct BodyItem {
    /// How the body travels: as its TLV bytes, inflated from zlib, or opaque (encrypted).
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
    /// How this body travels, and so how its bytes are read.
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
