/// The protocol's error codes: one table shared by the codec, the dissector, the peer and the
/// conformance suite, and the code carried on the wire in an ERROR TLV (wire-v1 section 8).
public enum ErrorCode: UInt16, CaseIterable, Sendable, Hashable, Codable {
    case badMagic = 1
    case versionUnsupported = 2
    case bodyTooLarge = 3
    case checksumMismatch = 4
    case unsupportedEncryption = 5
    case unsupportedCompression = 6
    case decompressionFailed = 7
    case tlvTruncated = 8
    case tlvLengthOverflow = 9
    case tlvTooDeep = 10
    case tlvDuplicateTag = 11
    case timestampOutOfWindow = 12
    case truncatedFrame = 13

    /// True for the TLV errors, whose offset counts from the start of the (decompressed) body
    /// rather than from the frame or the stream (wire-v1 section 8).
    public var countsOffsetFromBody: Bool {
        switch self {
        case .tlvTruncated, .tlvLengthOverflow, .tlvTooDeep, .tlvDuplicateTag: true
        default: false
        }
    }

    /// The name the brief gives the code, e.g. `CHECKSUM_MISMATCH`.
    public var name: String {
        switch self {
        case .badMagic: "BAD_MAGIC"
        case .versionUnsupported: "VERSION_UNSUPPORTED"
        case .bodyTooLarge: "BODY_TOO_LARGE"
        case .checksumMismatch: "CHECKSUM_MISMATCH"
        case .unsupportedEncryption: "UNSUPPORTED_ENCRYPTION"
        case .unsupportedCompression: "UNSUPPORTED_COMPRESSION"
        case .decompressionFailed: "DECOMPRESSION_FAILED"
        case .tlvTruncated: "TLV_TRUNCATED"
        case .tlvLengthOverflow: "TLV_LENGTH_OVERFLOW"
        case .tlvTooDeep: "TLV_TOO_DEEP"
        case .tlvDuplicateTag: "TLV_DUPLICATE_TAG"
        case .timestampOutOfWindow: "TIMESTAMP_OUT_OF_WINDOW"
        case .truncatedFrame: "TRUNCATED_FRAME"
        }
    }
}
