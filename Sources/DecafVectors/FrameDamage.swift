import DecafWire

/// Deliberate damage to a well-formed frame, for negative tests of a receiver: each breaks one
/// rule a receiver must enforce, and they apply in a fixed order (fields first, then the cut).
public struct FrameDamage: Hashable, Sendable {
    /// Store a checksum that does not match the body (CRC-2).
    public var badChecksum = false
    /// Store the right checksum little-endian (CRC-3).
    public var littleEndianChecksum = false
    /// Store this body_length instead of the real one (FRAME-3, LIMIT-1).
    public var bodyLength: UInt32?
    /// Store this magic instead of 0xDECAFBAD (FRAME-1).
    public var magic: UInt32?
    /// Keep only the first this many bytes (a truncated frame).
    public var truncateTo: Int?

    public init(badChecksum: Bool = false, littleEndianChecksum: Bool = false, bodyLength: UInt32? = nil, magic: UInt32? = nil, truncateTo: Int? = nil) {
        self.badChecksum = badChecksum
        self.littleEndianChecksum = littleEndianChecksum
        self.bodyLength = bodyLength
        self.magic = magic
        self.truncateTo = truncateTo
    }

    public var isNone: Bool { self == FrameDamage() }

    /// `frame` with the damage done; a frame shorter than a header can only be cut.
    public func apply(to frame: [UInt8]) -> [UInt8] {
        var bytes = frame
        if var header = FrameHeader(decoding: bytes) {
            if littleEndianChecksum { header.checksum = CRC32.checksum(bytes[FrameHeader.size...]).byteSwapped }
            if badChecksum { header.checksum = ~header.checksum }
            if let bodyLength { header.bodyLength = bodyLength }
            if let magic { header.magic = magic }
            bytes.replaceSubrange(0..<FrameHeader.size, with: header.bytes)
        }
        if let truncateTo { bytes = bytes.keeping(max(0, truncateTo)) }
        return bytes
    }
}
