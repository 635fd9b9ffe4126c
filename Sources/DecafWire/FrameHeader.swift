/// The fixed 28-byte frame header, every multi-byte field big-endian (wire-v1 section 1).
///
/// It holds whatever the bytes say, valid or not, so a dissector can show a broken header and a
/// test can build one; `HeaderValidator` decides whether a receiver accepts it.
public struct FrameHeader: Hashable, Sendable {
    /// Header size in bytes.
    public static let size = 28
    /// The value every frame starts with (FRAME-1).
    public static let magic: UInt32 = 0xDECA_FBAD
    /// The magic as it travels, in network byte order: what a reader looks for to find a frame.
    public static let magicBytes: [UInt8] = [0xDE, 0xCA, 0xFB, 0xAD]

    /// Where a reader that lost its place picks up again: the index of the first magic in `bytes`,
    /// or of a magic the end cuts short (the next bytes may complete it), or `bytes.endIndex`.
    /// Each byte is compared with the magic's first, and only a match with the rest: a reader
    /// hunting through megabytes of other bytes does one comparison a byte.
    public static func resynchronizationPoint(in bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                if buffer[index] == 0xDE {
                    let available = min(4, buffer.count - index)
                    var rest = 1
                    while rest < available, buffer[index + rest] == magicBytes[rest] { rest += 1 }
                    if rest == available { return bytes.startIndex + index }
                }
                index += 1
            }
            return bytes.endIndex
        }
    }

    /// The header's fields in wire order, each at its byte offset (the raw value), which is also the
    /// offset header errors report.
    public enum Field: Int, CaseIterable, Sendable {
        /// The magic, bytes 0-3.
        case magic = 0
        /// version_major, byte 4.
        case versionMajor = 4
        /// version_minor, byte 5.
        case versionMinor = 5
        /// msg_type, bytes 6-7.
        case messageType = 6
        /// The sequence, bytes 8-11.
        case sequence = 8
        /// The timestamp, bytes 12-15.
        case timestamp = 12
        /// encrypt_type, byte 16.
        case encryptType = 16
        /// compress_type, byte 17.
        case compressType = 17
        /// session_id, bytes 18-19.
        case sessionID = 18
        /// body_length, bytes 20-23.
        case bodyLength = 20
        /// The checksum, bytes 24-27.
        case checksum = 24

        /// The field's first byte, counted from the frame's start.
        public var offset: Int { rawValue }

        /// Every field in the order of the header's bytes, held once (`allCases` builds an array
        /// on every call).
        public static let inOrder = allCases

        /// Bytes the field occupies.
        public var size: Int {
            switch self {
            case .versionMajor, .versionMinor, .encryptType, .compressType: 1
            case .messageType, .sessionID: 2
            case .magic, .sequence, .timestamp, .bodyLength, .checksum: 4
            }
        }

        /// The brief's name for the field.
        public var name: String {
            switch self {
            case .magic: "magic"
            case .versionMajor: "version_major"
            case .versionMinor: "version_minor"
            case .messageType: "msg_type"
            case .sequence: "sequence"
            case .timestamp: "timestamp"
            case .encryptType: "encrypt_type"
            case .compressType: "compress_type"
            case .sessionID: "session_id"
            case .bodyLength: "body_length"
            case .checksum: "checksum"
            }
        }

        /// How every output names the field to a person: a tree's label, Wireshark's field title.
        public var title: String {
            switch self {
            case .magic: "Magic"
            case .versionMajor: "Version major"
            case .versionMinor: "Version minor"
            case .messageType: "Message type"
            case .sequence: "Sequence"
            case .timestamp: "Timestamp"
            case .encryptType: "Encrypt type"
            case .compressType: "Compress type"
            case .sessionID: "Session id"
            case .bodyLength: "Body length"
            case .checksum: "Checksum"
            }
        }

        /// The field's name in Wireshark's display filters (`decaf.msg_type`).
        public var filterName: String {
            switch self {
            case .versionMajor: "decaf.version.major"
            case .versionMinor: "decaf.version.minor"
            case .sequence: "decaf.seq"
            default: "decaf." + name
            }
        }

        /// How the value is best shown: a number, hex digits, the brief's name for it, or a time.
        public var display: Display {
            switch self {
            case .versionMajor, .versionMinor, .bodyLength: .decimal
            case .magic, .sequence, .sessionID, .checksum: .hex
            case .messageType, .encryptType, .compressType: .named
            case .timestamp: .time
            }
        }

        /// How outputs show a field's value: a number, hex, the brief's name, or a time.
        public enum Display: Hashable, Sendable {
            /// A number in decimal.
            case decimal
            /// A number in hex, with as many digits as the field has bytes.
            case hex
            /// The brief names the values (`valueName`).
            case named
            /// UNIX seconds.
            case time
        }

        /// The range of header bytes the field occupies.
        public var range: Range<Int> { offset..<(offset + size) }

        /// The field's value in `bytes`, which start with a header at least up to its end.
        public func value(in bytes: [UInt8]) -> UInt32 {
            bytes[range].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }

        /// Writes `value` big-endian into the field's bytes of `bytes`, keeping as many of its low
        /// bytes as the field holds: how tools craft and repair headers byte by byte.
        public func set(_ value: UInt32, in bytes: inout [UInt8]) {
            for (index, position) in range.enumerated() {
                bytes[position] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(size - 1 - index)))
            }
        }
    }

    /// The first four bytes; 0xDECAFBAD in every frame of this protocol (FRAME-1).
    public var magic: UInt32
    /// The sender's version: major and minor (VER-1, VER-2).
    public var version: ProtocolVersion
    /// DATA, HEARTBEAT, ACK, CONTROL or READ_RECEIPT; any other is skipped, not an error (FRAME-4).
    public var messageType: MessageType
    /// The category and counter (SEQ-1); an ACK carries the acknowledged frame's.
    public var sequence: SequenceNumber
    /// Sender's UNIX time in seconds.
    public var timestamp: UInt32
    /// How the body is protected (FRAME-5).
    public var encryptType: EncryptType
    /// Whether the body is a zlib stream (FRAME-6, ZLIB-1).
    public var compressType: CompressType
    /// The logical session the frame belongs to (SESSION-1).
    public var sessionID: SessionID
    /// The bytes of body after the header, as sent: compressed when the body is (FRAME-2, FRAME-3).
    public var bodyLength: UInt32
    /// The CRC-32 of the body as sent, big-endian (CRC-1).
    public var checksum: UInt32

    /// A header with these fields; the encoder computes body_length and checksum when it writes the frame.
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
        self.init(unchecked: bytes)
    }

    /// Reads the fields of the first 28 bytes of `bytes`, which the caller has counted. Inlined so
    /// that a caller reading one field loads only that field.
    @inlinable @inline(__always)
    init(unchecked bytes: UnsafeRawBufferPointer) {
        magic = bytes.bigEndianUInt32(at: Field.magic.offset)
        version = ProtocolVersion(major: bytes[Field.versionMajor.offset], minor: bytes[Field.versionMinor.offset])
        messageType = MessageType(rawValue: bytes.bigEndianUInt16(at: Field.messageType.offset))
        sequence = SequenceNumber(rawValue: bytes.bigEndianUInt32(at: Field.sequence.offset))
        timestamp = bytes.bigEndianUInt32(at: Field.timestamp.offset)
        encryptType = EncryptType(rawValue: bytes[Field.encryptType.offset])
        compressType = CompressType(rawValue: bytes[Field.compressType.offset])
        sessionID = SessionID(rawValue: bytes.bigEndianUInt16(at: Field.sessionID.offset))
        bodyLength = bytes.bigEndianUInt32(at: Field.bodyLength.offset)
        checksum = bytes.bigEndianUInt32(at: Field.checksum.offset)
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
        buffer.storeBigEndian(magic, at: Field.magic.offset)
        buffer[Field.versionMajor.offset] = version.major
        buffer[Field.versionMinor.offset] = version.minor
        buffer.storeBigEndian(messageType.rawValue, at: Field.messageType.offset)
        buffer.storeBigEndian(sequence.rawValue, at: Field.sequence.offset)
        buffer.storeBigEndian(timestamp, at: Field.timestamp.offset)
        buffer[Field.encryptType.offset] = encryptType.rawValue
        buffer[Field.compressType.offset] = compressType.rawValue
        buffer.storeBigEndian(sessionID.rawValue, at: Field.sessionID.offset)
        buffer.storeBigEndian(bodyLength, at: Field.bodyLength.offset)
        buffer.storeBigEndian(checksum, at: Field.checksum.offset)
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
