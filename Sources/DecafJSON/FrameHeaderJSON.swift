import DecafWire

/// A frame header in JSON: every field as a number, with the brief's names and the timestamp as
/// UTC ISO-8601 beside them. `decaf dissect --json`, the golden vector files and the testee
/// protocol all write this one form; reading one back needs only the numbers.
public struct FrameHeaderJSON: Codable, Hashable, Sendable {
    public var magic: UInt32 = 0
    public var versionMajor: UInt8 = 0
    public var versionMinor: UInt8 = 0
    public var msgType: UInt16 = 0
    public var msgTypeName: String?
    public var sequence: UInt32 = 0
    public var sequenceCategory: UInt8 = 0
    public var sequenceCategoryName: String?
    public var sequenceCounter: UInt32 = 0
    public var timestamp: UInt32 = 0
    public var time: String?
    public var encryptType: UInt8 = 0
    public var encryptTypeName: String?
    public var compressType: UInt8 = 0
    public var compressTypeName: String?
    public var sessionId: UInt16 = 0
    public var bodyLength: UInt32 = 0
    public var checksum: UInt32 = 0

    /// The JSON of `header`, field by field. A header field added to the frame model does not
    /// compile until this and `write` say how JSON shows it.
    public init(_ header: FrameHeader) {
        for field in FrameHeader.Field.inOrder {
            switch field {
            case .magic: magic = header.magic
            case .versionMajor: versionMajor = header.version.major
            case .versionMinor: versionMinor = header.version.minor
            case .messageType:
                msgType = header.messageType.rawValue
                msgTypeName = header.messageType.name
            case .sequence:
                sequence = header.sequence.rawValue
                sequenceCategory = header.sequence.category.rawValue
                sequenceCategoryName = header.sequence.category.name
                sequenceCounter = header.sequence.counter
            case .timestamp:
                timestamp = header.timestamp
                time = UTCTime.iso8601(header.timestamp)
            case .encryptType:
                encryptType = header.encryptType.rawValue
                encryptTypeName = header.encryptType.name
            case .compressType:
                compressType = header.compressType.rawValue
                compressTypeName = header.compressType.name
            case .sessionID: sessionId = header.sessionID.rawValue
            case .bodyLength: bodyLength = header.bodyLength
            case .checksum: checksum = header.checksum
            }
        }
    }

    /// Writes the JSON object of `header` straight into `writer`, the bytes Foundation's encoder
    /// gives for `FrameHeaderJSON(header)` (the tests hold every frame of every vector and capture
    /// to it), without building the value: `decaf dissect --json` writes millions. `time` is the
    /// timestamp's text, quoted, which the caller formats once per value.
    @inlinable
    public static func write(_ header: FrameHeader, time: [UInt8], to writer: inout JSONWriter) {
        writer.beginObject()
        for field in fieldsInKeyOrder {
            switch field {
            case .magic: writer.member("magic", header.magic)
            case .versionMajor: writer.member("versionMajor", header.version.major)
            case .versionMinor: writer.member("versionMinor", header.version.minor)
            case .messageType:
                writer.member("msgType", header.messageType.rawValue)
                writer.member("msgTypeName", name: header.messageType.briefName)
            case .sequence:
                writer.member("sequence", header.sequence.rawValue)
                writer.member("sequenceCategory", header.sequence.category.rawValue)
                writer.member("sequenceCategoryName", name: header.sequence.category.briefName)
                writer.member("sequenceCounter", header.sequence.counter)
            case .timestamp:
                writer.key("time")
                writer.raw(time)
                writer.member("timestamp", header.timestamp)
            case .encryptType:
                writer.member("encryptType", header.encryptType.rawValue)
                writer.member("encryptTypeName", name: header.encryptType.briefName)
            case .compressType:
                writer.member("compressType", header.compressType.rawValue)
                writer.member("compressTypeName", name: header.compressType.briefName)
            case .sessionID: writer.member("sessionId", header.sessionID.rawValue)
            case .bodyLength: writer.member("bodyLength", header.bodyLength)
            case .checksum: writer.member("checksum", header.checksum)
            }
        }
        writer.endObject()
    }

    /// The header fields in the order `write` gives their members: by the first member's key, as
    /// Foundation's encoder sorts keys (each field's members sort together).
    @usableFromInline
    static let fieldsInKeyOrder = FrameHeader.Field.inOrder.sorted { firstKey(of: $0) < firstKey(of: $1) }

    private static func firstKey(of field: FrameHeader.Field) -> String {
        switch field {
        case .magic: "magic"
        case .versionMajor: "versionMajor"
        case .versionMinor: "versionMinor"
        case .messageType: "msgType"
        case .sequence: "sequence"
        case .timestamp: "time"
        case .encryptType: "encryptType"
        case .compressType: "compressType"
        case .sessionID: "sessionId"
        case .bodyLength: "bodyLength"
        case .checksum: "checksum"
        }
    }

    /// The header the numbers give; `sequence` is read whole, the names and time are not read.
    public var frameHeader: FrameHeader {
        FrameHeader(
            messageType: MessageType(rawValue: msgType),
            sequence: SequenceNumber(rawValue: sequence),
            timestamp: timestamp,
            sessionID: SessionID(rawValue: sessionId),
            version: ProtocolVersion(major: versionMajor, minor: versionMinor),
            encryptType: EncryptType(rawValue: encryptType),
            compressType: CompressType(rawValue: compressType),
            bodyLength: bodyLength,
            checksum: checksum,
            magic: magic
        )
    }
}
