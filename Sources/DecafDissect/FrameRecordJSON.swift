import DecafCapture
import DecafJSON
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
    public var header: FrameHeaderJSON?
    public var checksum: Checksum?
    public var body: Body?
    public var tlv: [TLVFieldJSON]?
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
        warnings = record.warnings().map { Warning(requirement: $0.requirement.rawValue, message: $0.message) }
        error = record.error.map {
            ErrorInfo(code: $0.code.rawValue, name: $0.code.name, requirement: $0.requirement.rawValue,
                      offset: $0.offset, frameOffset: $0.frameOffset, message: $0.message)
        }
        tlv = record.fields.map { $0.map { TLVFieldJSON($0, visible: record.visible) } }
        guard let header = record.header else { return }
        self.header = FrameHeaderJSON(header)
        let computed = record.computedChecksum
        let verdict = computed.map { ChecksumVerdict(stored: header.checksum, computed: $0) }
        checksum = Checksum(
            stored: header.checksum, computed: computed,
            status: verdict.map { $0 == .correct ? "correct" : "mismatch" } ?? "unchecked",
            littleEndian: verdict?.isByteSwapped ?? false
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
        header.frameHeader.append(to: &bytes)
        return bytes + bodyBytes
    }
}
