/// A magic that is not 0xDECAFBAD but close to it, as a broken implementation writes it: one bit
/// or one byte off (a damaged or mistyped constant), or its bytes reversed (the magic, and most
/// likely the whole header, written little-endian). Named, as the checksum's byte order is
/// (CRC-3), so that BAD_MAGIC on such a frame says what went wrong. Pure.
public enum MagicNearMiss: Hashable, Sendable, CustomStringConvertible {
    /// One bit differs, counted from the least significant.
    case oneBit(Int)
    /// One byte differs, counted from the first on the wire.
    case oneByte(Int)
    /// The four bytes in reverse order.
    case byteSwapped

    /// What `found` is, when it is close to the magic; nil for the magic itself and anything else.
    public init?(_ found: UInt32) {
        let magic = FrameHeader.magic
        let difference = found ^ magic
        guard difference != 0 else { return nil }
        if found == magic.byteSwapped {
            self = .byteSwapped
        } else if difference.nonzeroBitCount == 1 {
            self = .oneBit(difference.trailingZeroBitCount)
        } else if let byte = (0..<4).first(where: { difference & ~(UInt32(0xFF) << (24 - 8 * $0)) == 0 }) {
            self = .oneByte(byte)
        } else {
            return nil
        }
    }

    /// What the first four bytes of `bytes` are, when they are close to the magic.
    public init?(startOf bytes: some Collection<UInt8>) {
        guard bytes.count >= 4 else { return nil }
        self.init(bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// How the magic misses, as a report says it: `one bit off`, `byte-swapped`.
    public var description: String {
        switch self {
        case let .oneBit(bit): "one bit off 0xDECAFBAD (bit \(bit)): a damaged or mistyped magic"
        case let .oneByte(byte): "one byte off 0xDECAFBAD (byte \(byte)): a damaged or mistyped magic"
        case .byteSwapped: "0xDECAFBAD written little-endian: the header is most likely written in host byte order"
        }
    }
}
