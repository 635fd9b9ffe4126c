import DecafCapture
import DecafWire

/// The `--json` form of a frame record: one object per line, schema in `Specs/dissect-json.md`.
/// Keys whose value is unknown (a header that did not arrive, a name the brief does not define)
/// are left out.
public struct FrameRecordJSON: Codable, Hashable, Sendable {
    public var record = "frame"
    public var index: Int
    public var streamOffset: Int
    /// Bytes of the frame that arrived.
    public var length: Int
    /// `ok` or `error`.
    public var status: String
    public var header: Header?
    public var checksum: Checksum?
    public var body: Body?
    public var tlv: [Field]?
    public var warnings: [Warning]
    public var error: ErrorInfo?
    /// Every byte of the frame that arrived, as hex.
    public var hex: String
    /// For a frame from a capture: its connection, direction, the packets that carried it and
    /// the capture time of the packet that completed it.
    public var connection: ConnectionJSON?
    public var direction: TCPDirection?
    public var packets: [Int]?
    /// The packet whose arrival completed the frame, where Wireshark shows it.
    public var packet: Int?
    public var captureTime: String?

    public struct Header: Codable, Hashable, Sendable {
        public var magic: UInt32
        public var versionMajor: UInt8
        public var versionMinor: UInt8
        public var msgType: UInt16
        public var msgTypeName: String?
        public var sequence: UInt32
        public var sequenceCategory: UInt8
        public var sequenceCategoryName: String?
        public var sequenceCounter: UInt32
        public var timestamp: UInt32
        public var time: String
        public var encryptType: UInt8
        public var encryptTypeName: String?
        public var compressType: UInt8
        public var compressTypeName: String?
        public var sessionId: UInt16
        public var bodyLength: UInt32
        public var checksum: UInt32
    }

    public struct Checksum: Codable, Hashable, Sendable {
        public var stored: UInt32
        public var computed: UInt32?
        /// `correct`, `mismatch`, or `unchecked` when the body did not arrive.
        public var status: String
        /// True when the stored value is the correct CRC written little-endian (CRC-3).
        public var littleEndian: Bool
    }

    public struct Body: Codable, Hashable, Sendable {
        /// Body bytes that arrived.
        public var length: Int
        /// The body as sent, as hex.
        public var hex: String
        public var compressed: Bool
        public var opaque: Bool
        /// For a compressed body that inflated: the TLV bytes, as hex.
        public var inflated: String?
    }

    public struct Field: Codable, Hashable, Sendable {
        /// Offset of the tag within the (decompressed) body.
        public var offset: Int
        public var tag: UInt16
        public var name: String?
        public var length: Int
        /// The value as hex; absent for containers.
        public var value: String?
        public var decoded: Decoded?
        /// The child fields of a container.
        public var fields: [Field]?
    }

    /// A known tag's value read with its layout.
    public struct Decoded: Codable, Hashable, Sendable {
        public var text: String?
        public var version: String?
        public var features: UInt16?
        public var featureNames: [String]?
        public var sequence: UInt32?
        public var code: UInt16?
        public var codeName: String?
        public var reason: String?
        /// Why the value does not fit its tag's layout.
        public var malformed: String?
    }

    public struct Warning: Codable, Hashable, Sendable {
        public var requirement: String
        public var message: String
    }

    public struct ErrorInfo: Codable, Hashable, Sendable {
        public var code: UInt16
        public var name: String
        public var requirement: String
        /// Offset as the brief defines it for this error (see `Specs/decaf-wire-v1.md`).
        public var offset: Int
        public var frameOffset: Int
        public var message: String
    }
}

extension FrameRecordJSON {
    public init(_ frame: CapturedFrame) {
        self.init(frame.record)
        connection = ConnectionJSON(frame.connection)
        direction = frame.direction
        packets = frame.packets
        packet = frame.completedBy
        captureTime = frame.time.description
    }

    public init(_ record: FrameRecord) {
        index = record.index
        streamOffset = record.streamOffset
        length = record.bytes.count
        status = record.isValid ? "ok" : "error"
        hex = Hex.string(record.bytes)
        warnings = record.warnings.map { Warning(requirement: $0.requirement.rawValue, message: $0.message) }
        error = record.error.map {
            ErrorInfo(code: $0.code.rawValue, name: $0.code.name, requirement: $0.requirement.rawValue,
                      offset: $0.offset, frameOffset: $0.frameOffset, message: $0.message)
        }
        tlv = record.fields.map { $0.map { Field($0, record: record) } }
        guard let header = record.header else { return }
        self.header = Header(header)
        let computed = record.computedChecksum
        checksum = Checksum(
            stored: header.checksum, computed: computed,
            status: computed.map { $0 == header.checksum ? "correct" : "mismatch" } ?? "unchecked",
            littleEndian: computed.map { $0 != header.checksum && $0 == header.checksum.byteSwapped } ?? false
        )
        let bodyBytes = record.bytes.dropFirst(FrameHeader.size)
        body = Body(
            length: bodyBytes.count, hex: Hex.string(bodyBytes), compressed: record.isCompressed, opaque: record.isOpaque,
            inflated: record.isCompressed ? record.payload.map(Hex.string) : nil
        )
    }
}

extension FrameRecordJSON {
    /// The frame's bytes as they travelled, rebuilt from the header fields (so an edited field
    /// shows in the result) and the body as sent; from `hex` when there is no header. Nil when
    /// the hex is not hex.
    public var wireBytes: [UInt8]? {
        guard let header, let body, let bodyBytes = Hex.bytes(body.hex) else { return Hex.bytes(hex) }
        var bytes: [UInt8] = []
        FrameHeader(
            messageType: MessageType(rawValue: header.msgType),
            sequence: SequenceNumber(rawValue: header.sequence),
            timestamp: header.timestamp,
            sessionID: SessionID(rawValue: header.sessionId),
            version: ProtocolVersion(major: header.versionMajor, minor: header.versionMinor),
            encryptType: EncryptType(rawValue: header.encryptType),
            compressType: CompressType(rawValue: header.compressType),
            bodyLength: header.bodyLength,
            checksum: header.checksum,
            magic: header.magic
        ).append(to: &bytes)
        return bytes + bodyBytes
    }
}

extension FrameRecordJSON.Header {
    init(_ header: FrameHeader) {
        self.init(
            magic: header.magic, versionMajor: header.version.major, versionMinor: header.version.minor,
            msgType: header.messageType.rawValue, msgTypeName: header.messageType.name,
            sequence: header.sequence.rawValue, sequenceCategory: header.sequence.category.rawValue,
            sequenceCategoryName: header.sequence.category.name, sequenceCounter: header.sequence.counter,
            timestamp: header.timestamp, time: TimeText.iso8601(header.timestamp),
            encryptType: header.encryptType.rawValue, encryptTypeName: header.encryptType.name,
            compressType: header.compressType.rawValue, compressTypeName: header.compressType.name,
            sessionId: header.sessionID.rawValue, bodyLength: header.bodyLength, checksum: header.checksum
        )
    }
}

extension FrameRecordJSON.Field {
    init(_ element: TLVElement, record: FrameRecord) {
        offset = element.offset
        tag = element.tag.rawValue
        name = element.tag.name
        length = element.value.count
        if element.isContainer {
            fields = record.visible(element.children).map { Self($0, record: record) }
        } else {
            value = Hex.string(element.value)
            decoded = FrameRecordJSON.Decoded(element.interpreted)
        }
    }
}

extension FrameRecordJSON.Decoded {
    /// The decoded form of `value`, or nil for plain bytes.
    init?(_ value: TLVValue) {
        self.init()
        switch value {
        case let .text(text): self.text = text
        case let .versionRequest(offer): version = offer.version.description; features = offer.features.rawValue; featureNames = offer.features.names
        case let .versionResponse(offer): version = offer.version.description; features = offer.features.rawValue; featureNames = offer.features.names
        case let .readReceipt(receipt): sequence = receipt.sequence.rawValue
        case let .error(report): code = report.code; codeName = ErrorCode(rawValue: report.code)?.name; reason = report.reason
        case let .malformed(why): malformed = why
        case .bytes, .container: return nil
        }
    }
}
