import DecafWire

/// A frame header in JSON: every field as a number, with the brief's names and the timestamp as
/// UTC ISO-8601 beside them. `decaf dissect --json`, the golden vector files and the testee
/// protocol all write this one form; reading one back needs only the numbers.
public struct FrameHeaderJSON: Codable, Hashable, Sendable {
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
    public var time: String?
    public var encryptType: UInt8
    public var encryptTypeName: String?
    public var compressType: UInt8
    public var compressTypeName: String?
    public var sessionId: UInt16
    public var bodyLength: UInt32
    public var checksum: UInt32

    public init(_ header: FrameHeader) {
        magic = header.magic
        versionMajor = header.version.major
        versionMinor = header.version.minor
        msgType = header.messageType.rawValue
        msgTypeName = header.messageType.name
        sequence = header.sequence.rawValue
        sequenceCategory = header.sequence.category.rawValue
        sequenceCategoryName = header.sequence.category.name
        sequenceCounter = header.sequence.counter
        timestamp = header.timestamp
        time = UTCTime.iso8601(header.timestamp)
        encryptType = header.encryptType.rawValue
        encryptTypeName = header.encryptType.name
        compressType = header.compressType.rawValue
        compressTypeName = header.compressType.name
        sessionId = header.sessionID.rawValue
        bodyLength = header.bodyLength
        checksum = header.checksum
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
