/// The protocol's error codes: one table shared by the codec, the dissector, the peer and the
/// conformance suite, and the code carried on the wire in an ERROR TLV (wire-v1 section 8).
public enum ErrorCode: UInt16, CaseIterable, Sendable, Hashable, Codable {
    /// 1 BAD_MAGIC (FRAME-1).
    case badMagic = 1
    /// 2 VERSION_UNSUPPORTED (VER-1, VER-2).
    case versionUnsupported = 2
    /// 3 BODY_TOO_LARGE (FRAME-2).
    case bodyTooLarge = 3
    /// 4 CHECKSUM_MISMATCH (CRC-2).
    case checksumMismatch = 4
    /// 5 UNSUPPORTED_ENCRYPTION (FRAME-5).
    case unsupportedEncryption = 5
    /// 6 UNSUPPORTED_COMPRESSION (FRAME-6).
    case unsupportedCompression = 6
    /// 7 DECOMPRESSION_FAILED (ZLIB-1, ZLIB-2).
    case decompressionFailed = 7
    /// 8 TLV_TRUNCATED (TLV-1).
    case tlvTruncated = 8
    /// 9 TLV_LENGTH_OVERFLOW (TLV-1).
    case tlvLengthOverflow = 9
    /// 10 TLV_TOO_DEEP (TLV-2).
    case tlvTooDeep = 10
    /// 11 TLV_DUPLICATE_TAG (TLV-3).
    case tlvDuplicateTag = 11
    /// 12 TIMESTAMP_OUT_OF_WINDOW (TS-1).
    case timestampOutOfWindow = 12
    /// 13 TRUNCATED_FRAME (FRAME-3).
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
