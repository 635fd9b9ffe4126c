/// The frame decoder's way through the common case: a whole frame in clear, uncompressed, whose
/// header passes every check, whose checksum matches and whose body is a flat TLV sequence of up
/// to eight fields, accepted in one pass over locals. It only ever accepts: anything else (a
/// frame cut short, a refusal, compression, an opaque body, a container, a timestamp window) is
/// left to the decoder's full checks, which say exactly what is wrong. Small frames (ACKs, short
/// texts) are most of the traffic, and for them the full path's generality costs more than the
/// checks themselves.
struct QuickAcceptance {
    private let major: UInt8
    private let minor: UInt8
    private let bodyLimit: Int
    private let verifiesChecksum: Bool
    private let allowsDuplicateTags: Bool
    /// False when the options ask for a check this path does not make (a timestamp window).
    private let isUsable: Bool

    init(_ options: DecodeOptions) {
        major = options.version.major
        minor = options.version.minor
        bodyLimit = options.bodyLimit
        verifiesChecksum = options.verifiesChecksum
        allowsDuplicateTags = options.tlv.allowsDuplicateTags
        isUsable = options.timestampWindow == nil
    }

    /// The length of the frame at the start of `bytes` when it is accepted here; nil leaves it to
    /// the full checks.
    @inline(__always)
    func acceptedLength(_ bytes: UnsafeRawBufferPointer) -> Int? {
        typealias Field = FrameHeader.Field
        guard isUsable, bytes.count >= FrameHeader.size,
              bytes.bigEndianUInt32(at: Field.magic.offset) == FrameHeader.magic,
              bytes[Field.versionMajor.offset] == major, bytes[Field.versionMinor.offset] <= minor,
              bytes[Field.encryptType.offset] <= EncryptType.crc32.rawValue,
              bytes[Field.compressType.offset] == CompressType.none.rawValue
        else { return nil }
        let bodyLength = Int(bytes.bigEndianUInt32(at: Field.bodyLength.offset))
        let length = FrameHeader.size + bodyLength
        guard bodyLength <= bodyLimit, bytes.count >= length else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size..<length])
        // The body's shape first: a frame left to the full checks must not have its checksum computed twice.
        guard isFlatSequence(body) else { return nil }
        if verifiesChecksum, CRC32.checksum(body) != bytes.bigEndianUInt32(at: Field.checksum.offset) { return nil }
        return length
    }

    /// Whether `body` is a sequence of up to eight whole fields, none a container, with no tag
    /// repeated unless repeats are allowed.
    @inline(__always)
    private func isFlatSequence(_ body: UnsafeRawBufferPointer) -> Bool {
        var tags = InlineArray<8, UInt16>(repeating: 0)
        var count = 0
        var position = 0
        while position < body.count {
            guard count < 8, body.count - position >= TLVEncoder.fieldHeaderSize else { return false }
            let tag = body.bigEndianUInt16(at: position)
            let length = Int(body.bigEndianUInt32(at: position + 2))
            guard tag != TLVTag.container.rawValue, length <= body.count - position - TLVEncoder.fieldHeaderSize else { return false }
            if !allowsDuplicateTags {
                for index in 0..<count where tags[index] == tag { return false }
                tags[count] = tag
            }
            count += 1
            position += TLVEncoder.fieldHeaderSize + length
        }
        return true
    }
}
