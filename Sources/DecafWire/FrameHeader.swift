/// The fixed 28-byte frame header, every multi-byte field big-endian (wire-v1 section 1).
///
/// It holds whatever the bytes say, valid or not, so a dissector can show a broken header and a
/// test can build one; `HeaderValidator` decides whether a receiver accepts it.
public struct FrameHeader: Hashable, Sendable {
    /// Header size in bytes.
    public static let size = 28
    /// The value every frame starts with (FRAME-1).
    public static let magic: UInt32 = 0xDECA_FBAD

    /// Byte offsets of the fields, which are also the offsets header errors report.
    public enum Offset {
        public static let magic = 0
        public static let version = 4
        public static let versionMinor = 5
        public static let messageType = 6
        public static let sequence = 8
        public static let timestamp = 12
        public static let encryptType = 16
        public static let compressType = 17
        public static let sessionID = 18
        public static let bodyLength = 20
        public static let checksum = 24
        public static let body = 28
    }

    public var magic: UInt32
    public var version: ProtocolVersion
    public var messageType: MessageType
    public var sequence: SequenceNumber
    /// Sender's UNIX time in seconds.
    public var timestamp: UInt32
    public var encryptType: EncryptType
    public var compressType: CompressType
    public var sessionID: SessionID
    public var bodyLength: UInt32
    public var checksum: UInt32

    public init(
        messageType: MessageType,
        sequence: SequenceNumber,
        timestamp: UInt32,
        sessionID: SessionID,
        version: ProtocolVersion = .v1_0,
        encryptType: EncryptType = .none,
        compressType: CompressType = .none,
        bodyLength: UInt32 = 0,
        checksum: UInt32 = 0,
        magic: UInt32 = FrameHeader.magic
    ) {
        self.magic = magic
        self.version = version
        self.messageType = messageType
        self.sequence = sequence
        self.timestamp = timestamp
        self.encryptType = encryptType
        self.compressType = compressType
        self.sessionID = sessionID
        self.bodyLength = bodyLength
        self.checksum = checksum
    }

    /// Reads the fields of the first 28 bytes of `bytes` without judging them; nil if fewer.
    public init?(decoding bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size else { return nil }
        magic = bytes.bigEndianUInt32(at: Offset.magic)
        version = ProtocolVersion(major: bytes[Offset.version], minor: bytes[Offset.versionMinor])
        messageType = MessageType(rawValue: bytes.bigEndianUInt16(at: Offset.messageType))
        sequence = SequenceNumber(rawValue: bytes.bigEndianUInt32(at: Offset.sequence))
        timestamp = bytes.bigEndianUInt32(at: Offset.timestamp)
        encryptType = EncryptType(rawValue: bytes[Offset.encryptType])
        compressType = CompressType(rawValue: bytes[Offset.compressType])
        sessionID = SessionID(rawValue: bytes.bigEndianUInt16(at: Offset.sessionID))
        bodyLength = bytes.bigEndianUInt32(at: Offset.bodyLength)
        checksum = bytes.bigEndianUInt32(at: Offset.checksum)
    }

    /// Reads the header at the start of `bytes`; nil if fewer than 28 bytes.
    public init?(decoding bytes: some Collection<UInt8>) {
        guard let header = bytes.withContiguousStorageIfAvailable({ FrameHeader(decoding: UnsafeRawBufferPointer($0)) })
            ?? Array(bytes.prefix(Self.size)).withUnsafeBytes({ FrameHeader(decoding: $0) })
        else { return nil }
        self = header
    }

    /// Writes the 28 header bytes exactly as the fields say into `buffer` (at least 28 bytes).
    public func write(to buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= Self.size, "a frame header needs 28 bytes")
        buffer.storeBigEndian(magic, at: Offset.magic)
        buffer[Offset.version] = version.major
        buffer[Offset.versionMinor] = version.minor
        buffer.storeBigEndian(messageType.rawValue, at: Offset.messageType)
        buffer.storeBigEndian(sequence.rawValue, at: Offset.sequence)
        buffer.storeBigEndian(timestamp, at: Offset.timestamp)
        buffer[Offset.encryptType] = encryptType.rawValue
        buffer[Offset.compressType] = compressType.rawValue
        buffer.storeBigEndian(sessionID.rawValue, at: Offset.sessionID)
        buffer.storeBigEndian(bodyLength, at: Offset.bodyLength)
        buffer.storeBigEndian(checksum, at: Offset.checksum)
    }

    /// Appends the 28 header bytes exactly as the fields say.
    public func append(to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: Self.size))
        bytes.withUnsafeMutableBytes { write(to: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
    }

    /// The 28 header bytes exactly as the fields say.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.size)
        append(to: &out)
        return out
    }
}
