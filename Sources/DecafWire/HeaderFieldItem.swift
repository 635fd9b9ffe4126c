/// A header field of a frame as the frame model yields it: which field, its value as it arrived,
/// and what the value means.
public struct HeaderFieldItem {
    /// Which header field this is.
    public let field: FrameHeader.Field
    /// Its value as it arrived.
    public let value: UInt32
    /// The body, for the checksum field, when all of it arrived.
    @usableFromInline let body: UnsafeRawBufferPointer?

    @inlinable
    init(field: FrameHeader.Field, value: UInt32, body: UnsafeRawBufferPointer?) {
        self.field = field
        self.value = value
        self.body = body
    }

    /// The bytes of the frame the field occupies.
    public var range: Range<Int> { field.range }

    /// For the checksum field, the CRC-32 of the body when all of it arrived; nil otherwise.
    public var computedChecksum: UInt32? {
        guard field == .checksum, let body else { return nil }
        return CRC32.checksum(body)
    }

    /// The brief's name for the value, where the field's values have names (msg_type, the
    /// sequence's category, encrypt_type, compress_type).
    public var valueName: String? {
        switch field {
        case .messageType: MessageType(rawValue: UInt16(truncatingIfNeeded: value)).name
        case .sequence: SequenceNumber(rawValue: value).category.name
        case .encryptType: EncryptType(rawValue: UInt8(truncatingIfNeeded: value)).name
        case .compressType: CompressType(rawValue: UInt8(truncatingIfNeeded: value)).name
        default: nil
        }
    }

    /// The value in a few words, as a hexdump labels it: the magic and checksum in hex with their
    /// state, names for named values, the sequence as category/counter, the timestamp in UTC.
    public var valueText: String {
        switch field {
        case .magic: return Hex.word(value) + (value == FrameHeader.magic ? "" : " (bad)")
        case .versionMajor, .versionMinor, .bodyLength: return "\(value)"
        case .messageType: return MessageType(rawValue: UInt16(truncatingIfNeeded: value)).description
        case .sequence: return SequenceNumber(rawValue: value).description
        case .timestamp: return UTCTime.iso8601(value)
        case .encryptType: return EncryptType(rawValue: UInt8(truncatingIfNeeded: value)).description
        case .compressType: return CompressType(rawValue: UInt8(truncatingIfNeeded: value)).description
        case .sessionID: return Hex.format(value, width: 4)
        case .checksum:
            guard let computed = computedChecksum else { return Hex.word(value) }
            return Hex.word(value) + (computed == value ? " correct" : " mismatch")
        }
    }
}
