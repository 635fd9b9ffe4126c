import DecafWire

/// A mistake codecs of this protocol make, each a small change to the reference codec
/// (`CodecModel`): the checksum in host byte order, a depth limit off by one, a zlib flag without
/// compression. A codec with one planted is a target the codec suite must fail (`decaf testee
/// decoder --mistake`), and after a run the codec suite's diagnosis names the smallest set of them
/// that predicts the testee's answers: its defects.
public enum CodecMistake: String, Hashable, Sendable, CaseIterable, Comparable {
    case checksumLittleEndian = "checksum-little-endian"
    case checksumNotVerified = "checksum-not-verified"
    case checksumOfInflatedBody = "checksum-of-inflated-body"
    case checksumWithoutFinalXOR = "checksum-without-final-xor"
    case bodyLengthCountsHeader = "body-length-counts-header"
    case bodyLengthNotLimited = "body-length-not-limited"
    case inflateNotLimited = "inflate-not-limited"
    case bodyLimitOffByOne = "body-limit-off-by-one"
    case typesCheckedBeforeBodyLength = "types-checked-before-body-length"
    case truncationOffsetAtEnd = "truncation-offset-at-end"
    case zlibBodyNotInflated = "zlib-body-not-inflated"
    case zlibFlagWithoutCompressing = "zlib-flag-without-compressing"
    case emptyZlibBodyInflated = "empty-zlib-body-inflated"
    case tlvLengthLittleEndian = "tlv-length-little-endian"
    case tlvOffsetFromFrameStart = "tlv-offset-from-frame-start"
    case depthLimitOffByOne = "depth-limit-off-by-one"
    case duplicateTagsAccepted = "duplicate-tags-accepted"
    case tlvTailIgnored = "tlv-tail-ignored"
    case magicNotChecked = "magic-not-checked"
    case versionMajorNotChecked = "version-major-not-checked"
    case versionMinorNotChecked = "version-minor-not-checked"
    case versionNotChecked = "version-not-checked"
    case sequenceNotSplit = "sequence-not-split"
    case encryptTypeNotChecked = "encrypt-type-not-checked"
    case compressTypeNotChecked = "compress-type-not-checked"
    case timestampNotChecked = "timestamp-not-checked"

    /// The name `--mistake` takes and reports show.
    public var name: String { rawValue }

    /// Mistakes in the catalog's order.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The defect in one sentence, as a report names it: "reads and writes the checksum in host
    /// byte order (little-endian)".
    public var cause: String {
        switch self {
        case .checksumLittleEndian: "reads and writes the checksum in host byte order (little-endian)"
        case .checksumNotVerified: "does not verify the checksum"
        case .checksumOfInflatedBody: "computes the checksum of a zlib body after inflating it, not of the bytes as sent"
        case .checksumWithoutFinalXOR: "computes the CRC-32 without its final XOR (CRC-32/JAMCRC), so an empty body's checksum is 0xFFFFFFFF"
        case .bodyLengthCountsHeader: "counts the 28-byte header in body_length"
        case .bodyLengthNotLimited: "takes a body_length above its body limit"
        case .inflateNotLimited: "inflates a zlib body past its body limit"
        case .bodyLimitOffByOne: "refuses a body exactly at its limit (the limit is allowed)"
        case .typesCheckedBeforeBodyLength: "checks encrypt_type and compress_type before body_length"
        case .truncationOffsetAtEnd: "reports TRUNCATED_FRAME at the stream's end, not where the incomplete frame starts"
        case .zlibBodyNotInflated: "parses a zlib body without inflating it"
        case .zlibFlagWithoutCompressing: "marks a body as zlib without compressing it"
        case .emptyZlibBodyInflated: "inflates an empty body whose compress_type is ZLIB, and fails"
        case .tlvLengthLittleEndian: "reads and writes TLV lengths in little-endian"
        case .tlvOffsetFromFrameStart: "reports TLV errors at offsets from the frame's start, not the body's"
        case .depthLimitOffByOne: "accepts one level of container nesting more than its depth limit"
        case .duplicateTagsAccepted: "accepts a tag repeated in one sequence"
        case .tlvTailIgnored: "stops parsing a TLV sequence where a field no longer fits and takes the frame, ignoring the rest (a stray fragment, a length that runs past)"
        case .magicNotChecked: "does not check the magic"
        case .versionMajorNotChecked: "does not check version_major"
        case .versionMinorNotChecked: "accepts a version_minor above its own"
        case .versionNotChecked: "does not check the version at all"
        case .sequenceNotSplit: "reads the sequence as one counter, without the category in its high 8 bits"
        case .encryptTypeNotChecked: "does not check encrypt_type: reads any body as clear"
        case .compressTypeNotChecked: "does not check compress_type: reads an unknown one as none"
        case .timestampNotChecked: "does not check the timestamp against its window"
        }
    }

    /// What to change, in one line.
    public var fix: String {
        switch self {
        case .checksumLittleEndian: "read and write the checksum big-endian, as every header field"
        case .checksumNotVerified: "compute the CRC-32 of the body as received and refuse a mismatch (CHECKSUM_MISMATCH) before inflating or parsing"
        case .checksumOfInflatedBody: "checksum the body exactly as it travels: the compressed bytes"
        case .checksumWithoutFinalXOR: "use CRC-32/ISO-HDLC, zlib's: initial value and final XOR 0xFFFFFFFF (check value 0xCBF43926)"
        case .bodyLengthCountsHeader: "body_length is the body alone: a frame is 28 + body_length bytes"
        case .bodyLengthNotLimited: "refuse a body_length above the limit from the header alone (BODY_TOO_LARGE)"
        case .inflateNotLimited: "stop inflating as soon as the output passes the body limit (DECOMPRESSION_FAILED)"
        case .bodyLimitOffByOne: "refuse only what is above the limit: a body_length or an inflated body equal to it is allowed"
        case .typesCheckedBeforeBodyLength: "check in section 8's order: BAD_MAGIC, VERSION_UNSUPPORTED, BODY_TOO_LARGE, then the encrypt and compress types"
        case .truncationOffsetAtEnd: "report TRUNCATED_FRAME at the offset where the incomplete frame starts"
        case .zlibBodyNotInflated: "inflate a body whose compress_type is ZLIB before parsing its TLV fields"
        case .zlibFlagWithoutCompressing: "compress the body (one zlib stream) when compress_type says ZLIB"
        case .emptyZlibBodyInflated: "take a body_length of 0 as an empty body, whatever compress_type says"
        case .tlvLengthLittleEndian: "a TLV length is a u32, big-endian"
        case .tlvOffsetFromFrameStart: "count a TLV error's offset from the start of the (inflated) body"
        case .depthLimitOffByOne: "the body is depth 0 and a container's value one deeper: refuse parsing above the limit (four nested containers pass, five do not)"
        case .duplicateTagsAccepted: "refuse a tag's second occurrence in one sequence (TLV_DUPLICATE_TAG) unless configured to allow it"
        case .tlvTailIgnored: "refuse a sequence whose last bytes are not a whole field (TLV_TRUNCATED) and a field whose length runs past its sequence (TLV_LENGTH_OVERFLOW)"
        case .magicNotChecked: "refuse a frame whose first four bytes are not 0xDECAFBAD (BAD_MAGIC)"
        case .versionMajorNotChecked: "refuse a version_major other than your own (VERSION_UNSUPPORTED)"
        case .versionMinorNotChecked: "refuse a version_minor above your highest (VERSION_UNSUPPORTED)"
        case .versionNotChecked: "refuse another version_major, or a version_minor above your highest (VERSION_UNSUPPORTED)"
        case .sequenceNotSplit: "sequence = category << 24 | counter: split it"
        case .encryptTypeNotChecked: "refuse an encrypt_type outside 0-2, and AES256 unless you can decrypt (UNSUPPORTED_ENCRYPTION)"
        case .compressTypeNotChecked: "refuse a compress_type outside 0-1 (UNSUPPORTED_COMPRESSION)"
        case .timestampNotChecked: "with a window configured, refuse a timestamp outside it (TIMESTAMP_OUT_OF_WINDOW)"
        }
    }

    /// The requirements a codec with this mistake breaks.
    public var breaks: [RequirementID] {
        switch self {
        case .checksumLittleEndian: [.crc1, .crc3]
        case .checksumNotVerified: [.crc2]
        case .checksumOfInflatedBody: [.crc1, .crc2]
        case .checksumWithoutFinalXOR: [.crc1]
        case .bodyLengthCountsHeader: [.frame3]
        case .bodyLengthNotLimited: [.frame2]
        case .inflateNotLimited: [.zlib2]
        case .bodyLimitOffByOne, .typesCheckedBeforeBodyLength: [.frame2]
        case .truncationOffsetAtEnd: [.frame3]
        case .emptyZlibBodyInflated: [.zlib3]
        case .zlibBodyNotInflated, .zlibFlagWithoutCompressing: [.zlib1]
        case .tlvLengthLittleEndian, .tlvOffsetFromFrameStart: [.tlv1]
        case .depthLimitOffByOne: [.tlv2]
        case .duplicateTagsAccepted: [.tlv3]
        case .tlvTailIgnored: [.tlv1]
        case .magicNotChecked: [.frame1]
        case .versionMajorNotChecked: [.ver1]
        case .versionMinorNotChecked: [.ver2]
        case .versionNotChecked: [.ver1, .ver2]
        case .sequenceNotSplit: [.seq1]
        case .encryptTypeNotChecked: [.frame5]
        case .compressTypeNotChecked: [.frame6]
        case .timestampNotChecked: [.ts1]
        }
    }
}
