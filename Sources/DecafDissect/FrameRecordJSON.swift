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
    /// The JSON of a frame from a capture, built member by member for Foundation's encoder: the
    /// reference the tests hold `FrameJSONWriter`'s bytes to. The TLV fields are the one writer's
    /// (`TLVFieldJSONWriter`), read back.
    public init(_ frame: CapturedFrameView) throws {
        try self.init(frame.parts)
        connection = ConnectionJSON(frame.connection)
        direction = frame.direction
        packets = Array(frame.packets)
        packet = frame.completedBy
        captureTime = frame.time.description
    }

    /// The JSON of a frame from a stream, built the same way.
    public init(_ frame: FrameParts) throws {
        index = frame.index
        streamOffset = frame.streamOffset
        length = frame.bytes.count
        status = frame.isValid ? "ok" : "error"
        hex = Hex.string(frame.bytes)
        warnings = frame.warnings().map { Warning(requirement: $0.requirement.rawValue, message: $0.message) }
        error = frame.error.map {
            ErrorInfo(code: $0.code.rawValue, name: $0.code.name, requirement: $0.requirement.rawValue,
                      offset: $0.offset, frameOffset: $0.frameOffset, message: $0.message)
        }
        // The fields before the TLV error, if any (a parser stops there), as the one writer of a
        // field's JSON writes them.
        tlv = try frame.payload.map { _ in try TLVFieldJSON.written(frame.fields) }
        guard let header = frame.header else { return }
        self.header = FrameHeaderJSON(header)
        let computed = frame.computedChecksum
        let verdict = computed.map { ChecksumVerdict(stored: header.checksum, computed: $0) }
        checksum = Checksum(
            stored: header.checksum, computed: computed,
            status: verdict.map { $0 == .correct ? "correct" : "mismatch" } ?? "unchecked",
            littleEndian: verdict?.isByteSwapped ?? false
        )
        let bodyBytes = frame.bytes.dropFirst(FrameHeader.size)
        body = Body(
            length: bodyBytes.count, hex: Hex.string(bodyBytes), compressed: frame.isCompressed, opaque: frame.isOpaque,
            inflated: frame.isCompressed ? frame.payload.map(Hex.string) : nil
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
