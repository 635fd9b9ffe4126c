/// Why a frame, a TLV body or a byte stream was rejected: the brief's error code, the requirement
/// it enforces, the byte offset, and the facts behind it, so a report can say exactly what broke.
///
/// `offset` follows the brief's "order and offsets" rule: a header field's offset from the start of
/// the frame, the frame's start in the stream for `TRUNCATED_FRAME`, 28 for `DECOMPRESSION_FAILED`,
/// and the offending field's tag offset within the (decompressed) body for TLV errors.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, with the values that show it.
    public enum Fault: Hashable, Sendable {
        /// The first four bytes are not 0xDECAFBAD.
        case badMagic(found: UInt32)
        /// version_major is not the receiver's.
        case majorVersionUnsupported(found: ProtocolVersion, supported: ProtocolVersion)
        /// version_minor is above the receiver's highest.
        case minorVersionUnsupported(found: ProtocolVersion, supported: ProtocolVersion)
        /// body_length is above the receiver's limit.
        case bodyTooLarge(length: UInt32, limit: Int)
        /// encrypt_type is outside 0-2.
        case unknownEncryption(EncryptType)
        /// encrypt_type is AES256 and the receiver cannot decrypt.
        case undecryptableBody
        /// compress_type is outside 0-1.
        case unknownCompression(CompressType)
        /// The timestamp is further from the receiver's clock than its window.
        case timestampOutOfWindow(timestamp: UInt32, now: UInt32, window: UInt32)
        /// The stream ended inside a frame: `expected` is nil while the header was incomplete.
        case truncatedFrame(received: Int, expected: Int?)
        /// The stored checksum is not the body's CRC-32.
        case checksumMismatch(stored: UInt32, computed: UInt32)
        /// The body is not a valid zlib stream (a bad header, a bad Adler-32, a preset dictionary, a stream cut short).
        case malformedZlibStream
        /// Bytes follow the end of the zlib stream.
        case bytesAfterZlibStream(count: Int)
        /// The body inflates past the limit (a decompression bomb).
        case inflatedBodyTooLarge(limit: Int)
        /// Fewer than 6 bytes are left where a field should start.
        case tlvTruncated(remaining: Int)
        /// A field's length runs past the end of its sequence.
        case tlvLengthOverflow(tag: TLVTag, length: UInt32, available: Int)
        /// Containers nest deeper than the limit.
        case tlvTooDeep(depth: Int, limit: Int)
        /// A tag repeats within one sequence.
        case tlvDuplicateTag(tag: TLVTag, firstOffset: Int)
    }

    /// What is wrong, with the values that show it.
    public var fault: Fault
    /// Byte offset of the offending field (see the type's documentation for the reference point).
    public var offset: Int
    /// Where the frame that failed starts in the stream; 0 when a single frame was decoded.
    public var frameOffset: Int

    /// The error `fault` at `offset`, in the frame that starts at `frameOffset` of the stream.
    public init(_ fault: Fault, offset: Int, frameOffset: Int = 0) {
        self.fault = fault
        self.offset = offset
        self.frameOffset = frameOffset
    }

    /// The section 8 code the fault is reported with.
    public var code: ErrorCode {
        switch fault {
        case .badMagic: .badMagic
        case .majorVersionUnsupported, .minorVersionUnsupported: .versionUnsupported
        case .bodyTooLarge: .bodyTooLarge
        case .unknownEncryption, .undecryptableBody: .unsupportedEncryption
        case .unknownCompression: .unsupportedCompression
        case .timestampOutOfWindow: .timestampOutOfWindow
        case .truncatedFrame: .truncatedFrame
        case .checksumMismatch: .checksumMismatch
        case .malformedZlibStream, .bytesAfterZlibStream, .inflatedBodyTooLarge: .decompressionFailed
        case .tlvTruncated: .tlvTruncated
        case .tlvLengthOverflow: .tlvLengthOverflow
        case .tlvTooDeep: .tlvTooDeep
        case .tlvDuplicateTag: .tlvDuplicateTag
        }
    }

    /// The requirement the input breaks.
    public var requirement: RequirementID {
        switch fault {
        case .badMagic: .frame1
        case .majorVersionUnsupported: .ver1
        case .minorVersionUnsupported: .ver2
        case .bodyTooLarge: .frame2
        case .unknownEncryption, .undecryptableBody: .frame5
        case .unknownCompression: .frame6
        case .timestampOutOfWindow: .ts1
        case .truncatedFrame: .frame3
        case .checksumMismatch: .crc2
        case .malformedZlibStream, .bytesAfterZlibStream: .zlib1
        case .inflatedBodyTooLarge: .zlib2
        case .tlvTruncated, .tlvLengthOverflow: .tlv1
        case .tlvTooDeep: .tlv2
        case .tlvDuplicateTag: .tlv3
        }
    }

    /// True when the stored checksum is the correct CRC-32 written in little-endian (CRC-3), the
    /// known interoperability defect a report should name.
    public var isByteSwappedChecksum: Bool {
        if case let .checksumMismatch(stored, computed) = fault {
            return ChecksumVerdict(stored: stored, computed: computed).isByteSwapped
        }
        return false
    }

    /// One line a person can act on, without the code or offset (see `description` for those).
    public var message: String {
        switch fault {
        case let .badMagic(found):
            return "magic is \(Hex.word(found)), expected \(Hex.word(FrameHeader.magic))" + (MagicNearMiss(found).map { " (\($0))" } ?? "")
        case let .majorVersionUnsupported(found, supported):
            return "version \(found) has major \(found.major); this receiver speaks major \(supported.major) only"
        case let .minorVersionUnsupported(found, supported):
            return "version \(found) is newer than the highest supported version \(supported)"
        case let .bodyTooLarge(length, limit):
            return "body_length \(length) exceeds the limit of \(limit) bytes"
        case let .unknownEncryption(type):
            return "encrypt_type \(type.rawValue) is not defined (0 NONE, 1 CRC32, 2 AES256)"
        case .undecryptableBody:
            return "encrypt_type 2 (AES256): this receiver cannot decrypt the body"
        case let .unknownCompression(type):
            return "compress_type \(type.rawValue) is not defined (0 NONE, 1 ZLIB)"
        case let .timestampOutOfWindow(timestamp, now, window):
            let skew = Int64(timestamp) - Int64(now)
            return "timestamp \(timestamp) is \(skew > 0 ? "+" : "")\(skew) s from now (\(now)), outside the \(window) s window"
        case let .truncatedFrame(received, expected):
            if let expected {
                return "stream ended after \(received) of the frame's \(expected) bytes"
            }
            return "stream ended after \(received) of the \(FrameHeader.size) header bytes"
        case let .checksumMismatch(stored, computed):
            let base = "checksum \(Hex.word(stored)) does not match the body's CRC-32 \(Hex.word(computed))"
            return isByteSwappedChecksum ? base + " (checksum written in little-endian, CRC-3)" : base
        case .malformedZlibStream:
            return "body is not a valid zlib stream (bad header, data or Adler-32)"
        case let .bytesAfterZlibStream(count):
            return "\(count) byte\(count == 1 ? "" : "s") follow the end of the zlib stream"
        case let .inflatedBodyTooLarge(limit):
            return "body inflates past the limit of \(limit) bytes"
        case let .tlvTruncated(remaining):
            return "\(remaining) byte\(remaining == 1 ? "" : "s") left where a TLV field needs at least 6"
        case let .tlvLengthOverflow(tag, length, available):
            return "field \(tag) claims \(length) bytes but only \(available) remain in its sequence"
        case let .tlvTooDeep(depth, limit):
            return "container value would be parsed at depth \(depth), deeper than the limit \(limit)"
        case let .tlvDuplicateTag(tag, firstOffset):
            return "field \(tag) repeats the field at offset \(firstOffset) in the same sequence"
        }
    }

    /// `NAME (REQ) at offset N: message`, the form every tool prints.
    public var description: String {
        "\(code.name) (\(requirement.rawValue)) at offset \(offset): \(message)"
    }
}
