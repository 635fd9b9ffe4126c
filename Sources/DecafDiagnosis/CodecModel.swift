import DecafWire

/// The reference codec with mistakes planted: what a codec that makes exactly these mistakes
/// decodes from a stream, and the bytes it writes for a frame. With none it is DecafWire's answer, the brief's. Each
/// mistake is a change of the input before the reference decodes it (a field read another way),
/// of the receiver's options (a check left out), or of the answer after (an offset counted from
/// elsewhere), so mistakes compose as a codec's defects do. Pure: the codec suite's diagnosis runs
/// it on every case, `decaf testee decoder --mistake` answers with it.
public struct CodecModel: Sendable {
    /// The mistakes it makes.
    public let mistakes: Set<CodecMistake>

    /// The reference codec with `mistakes` planted (none: the brief's codec).
    public init(_ mistakes: Set<CodecMistake> = []) {
        self.mistakes = mistakes
    }

    /// The mistakes `encode` makes: a codec with none of them writes the reference's bytes
    /// (a test holds every other mistake to it), so a diagnosis need not encode again for them.
    public static let encodingMistakes: Set<CodecMistake> = [
        .tlvLengthLittleEndian, .zlibFlagWithoutCompressing, .emptyZlibBodyInflated, .checksumOfInflatedBody,
        .checksumWithoutFinalXOR, .bodyLengthCountsHeader, .checksumLittleEndian,
    ]

    /// Whether it writes other bytes than the reference for some frame.
    public var altersEncoding: Bool { !mistakes.isDisjoint(with: Self.encodingMistakes) }

    /// Largest body a codec with no limit is modelled to take (it would take more, memory allowing).
    public static let unlimitedBody = 64 << 20

    /// What decoding gave: the stream's one frame, or its first error.
    public enum Decoded: Sendable {
        /// The stream's one frame.
        case frame(Frame)
        /// Its first error, at the offset this codec reports.
        case error(WireError)
    }

    // MARK: - Decoding

    /// The stream decoded as one receiver with these mistakes decodes it, then ended.
    public func decode(_ input: [UInt8], options given: DecodeOptions) -> Decoded {
        var bytes = input
        var options = given
        var header = HeaderReading()
        if bytes.count >= FrameHeader.size { misread(&bytes, &header, options: &options) }
        if mistakes.contains(.checksumNotVerified) { options.verifiesChecksum = false }
        if mistakes.contains(.depthLimitOffByOne) { options.tlv.depthLimit += 1 }
        if mistakes.contains(.duplicateTagsAccepted) { options.tlv.allowsDuplicateTags = true }
        if mistakes.contains(.timestampNotChecked) { options.timestampWindow = nil }
        if mistakes.contains(.versionMinorNotChecked) || mistakes.contains(.versionNotChecked) { options.version.minor = .max }
        if mistakes.contains(.bodyLimitOffByOne) { options.bodyLimit = max(0, options.bodyLimit - 1) }
        let limit = options.bodyLimit
        if mistakes.contains(.typesCheckedBeforeBodyLength), bytes.count >= FrameHeader.size {
            var unlimited = options
            unlimited.bodyLimit = Int(UInt32.max)
            if case let .error(error) = reference(bytes, options: unlimited, header: header),
               error.code == .unsupportedEncryption || error.code == .unsupportedCompression {
                return .error(error)
            }
        }
        // The reference's one limit covers both the header's body_length and the inflated body; a
        // mistake leaves out one check. Without the header's check left out, a body_length above
        // the limit is refused where section 8's order puts it, as the reference refuses it.
        if mistakes.contains(.inflateNotLimited), !mistakes.contains(.bodyLengthNotLimited),
           case let .error(error) = reference(bytes, options: options, header: header), error.code == .bodyTooLarge {
            return .error(error)
        }
        if mistakes.contains(.inflateNotLimited) { options.bodyLimit = max(options.bodyLimit, Self.unlimitedBody) }
        if mistakes.contains(.bodyLengthNotLimited), bytes.count >= FrameHeader.size {
            // Only as far as this frame's own body_length: a body that never arrives reserves nothing.
            options.bodyLimit = max(options.bodyLimit, Int(FrameHeader.Field.bodyLength.value(in: bytes)))
        }
        var decoded = reference(bytes, options: options, header: header)
        if mistakes.contains(.tlvTailIgnored), case let .error(error) = decoded, error.code == .tlvTruncated || error.code == .tlvLengthOverflow,
           let sent = FrameHeader(decoding: input), sent.compressType == .none, input.count == FrameHeader.size + Int(sent.bodyLength) {
            // A body in clear whose fields stop fitting: what parsed is taken, the rest ignored.
            decoded = .frame(Frame(header: sent, body: input[FrameHeader.size...]))
        }
        guard case let .frame(frame) = decoded, frame.header.compressType == .zlib else { return decoded }
        if !mistakes.contains(.inflateNotLimited), frame.payload.count > limit {
            return .error(WireError(.inflatedBodyTooLarge(limit: limit), offset: FrameHeader.size))
        }
        if mistakes.contains(.emptyZlibBodyInflated), !mistakes.contains(.zlibBodyNotInflated), frame.header.bodyLength == 0 {
            return .error(WireError(.malformedZlibStream, offset: FrameHeader.size))
        }
        return decoded
    }

    /// The reference decoder's answer to the misread bytes, with the header put back as sent and
    /// a TLV error's offset as this codec counts it.
    private func reference(_ bytes: [UInt8], options: DecodeOptions, header: HeaderReading) -> Decoded {
        var decoder = FrameDecoder(options: options)
        decoder.append(bytes)
        do {
            guard var frame = try decoder.nextFrame() else {
                try decoder.finish()
                return .error(WireError(.truncatedFrame(received: bytes.count, expected: nil), offset: 0))
            }
            try decoder.finish()
            header.restore(&frame.header)
            return .frame(frame)
        } catch {
            var reported = error
            if error.code == .truncatedFrame, mistakes.contains(.truncationOffsetAtEnd) { reported.offset = bytes.count }
            if error.code.countsOffsetFromBody && mistakes.contains(.tlvOffsetFromFrameStart) { reported.offset += FrameHeader.size }
            return .error(reported)
        }
    }

    /// The header fields a mistake reads another way than they were sent, put back into the
    /// decoded header: the codec reports what it was sent, only read wrong.
    struct HeaderReading {
        private(set) var restored: [(FrameHeader.Field, UInt32)] = []

        /// Notes that `field` was sent as `value`, unless an earlier rewrite noted it first.
        mutating func keep(_ field: FrameHeader.Field, sent value: UInt32) {
            if !restored.contains(where: { $0.0 == field }) { restored.append((field, value)) }
        }

        func restore(_ header: inout FrameHeader) {
            guard !restored.isEmpty else { return }
            var bytes: [UInt8] = []
            header.append(to: &bytes)
            for (field, value) in restored { field.set(value, in: &bytes) }
            header = FrameHeader(decoding: bytes) ?? header
        }
    }

    /// Changes the frame's bytes as the mistakes read them, noting the header fields to put back.
    private func misread(_ bytes: inout [UInt8], _ header: inout HeaderReading, options: inout DecodeOptions) {
        func rewrite(_ field: FrameHeader.Field, to value: UInt32) {
            let sent = field.value(in: bytes)
            guard sent != value else { return }
            header.keep(field, sent: sent)
            field.set(value, in: &bytes)
        }
        if mistakes.contains(.magicNotChecked) { rewrite(.magic, to: FrameHeader.magic) }
        if mistakes.contains(.versionMajorNotChecked) || mistakes.contains(.versionNotChecked) { rewrite(.versionMajor, to: UInt32(options.version.major)) }
        if mistakes.contains(.encryptTypeNotChecked), FrameHeader.Field.encryptType.value(in: bytes) > 1 { rewrite(.encryptType, to: 0) }
        if mistakes.contains(.compressTypeNotChecked), FrameHeader.Field.compressType.value(in: bytes) > 1 { rewrite(.compressType, to: 0) }
        if mistakes.contains(.zlibBodyNotInflated), FrameHeader.Field.compressType.value(in: bytes) == 1 { rewrite(.compressType, to: 0) }
        if mistakes.contains(.bodyLengthCountsHeader) {
            let length = FrameHeader.Field.bodyLength.value(in: bytes)
            rewrite(.bodyLength, to: length >= UInt32(FrameHeader.size) ? length - UInt32(FrameHeader.size) : 0)
        }
        if mistakes.contains(.checksumLittleEndian) {
            // Read little-endian: the reference then sees the value this codec computes against.
            bytes[FrameHeader.Field.checksum.offset..<FrameHeader.size].reverse()
        }
        // Computed without the final XOR, the CRC this codec compares is the complement of the brief's.
        if mistakes.contains(.checksumWithoutFinalXOR) { rewrite(.checksum, to: ~FrameHeader.Field.checksum.value(in: bytes)) }
        let end = FrameHeader.size + Int(FrameHeader.Field.bodyLength.value(in: bytes))
        guard end <= bytes.count, end > FrameHeader.size else { return }
        if mistakes.contains(.tlvLengthLittleEndian) || mistakes.contains(.checksumOfInflatedBody) {
            misreadBody(&bytes, end: end, header: &header, options: &options)
        }
    }

    /// The body-level mistakes: TLV lengths read little-endian, and a zlib body's checksum taken
    /// after inflating. The body is rewritten as the reference would have to be sent it to read
    /// what this codec reads.
    private func misreadBody(_ bytes: inout [UInt8], end: Int, header: inout HeaderReading, options: inout DecodeOptions) {
        let zlib = FrameHeader.Field.compressType.value(in: bytes) == 1
        let stored = FrameHeader.Field.checksum.value(in: bytes)
        guard zlib else {
            // A body in clear is rewritten where it lies: its length stays, and a body of
            // megabytes is not copied for a few length fields.
            let checksumHolds = CRC32.checksum(bytes[FrameHeader.size..<end]) == stored
            if mistakes.contains(.tlvLengthLittleEndian) { TLVLengthOrder.swap(&bytes, in: FrameHeader.size..<end, readingLittleEndian: true) }
            let checksum = CRC32.checksum(bytes[FrameHeader.size..<end])
            header.keep(.checksum, sent: stored)
            header.keep(.bodyLength, sent: UInt32(end - FrameHeader.size))
            FrameHeader.Field.checksum.set(checksumHolds ? checksum : ~checksum, in: &bytes)
            return
        }
        let body = Array(bytes[FrameHeader.size..<end])
        guard var payload = try? ZlibInflater().inflate(body, limit: max(options.bodyLimit, 1)) else {
            // This codec inflates before it checks: the inflation's failure comes first.
            if mistakes.contains(.checksumOfInflatedBody) { options.verifiesChecksum = false }
            return
        }
        let checksumHolds = CRC32.checksum(mistakes.contains(.checksumOfInflatedBody) ? payload : body) == stored
        if mistakes.contains(.tlvLengthLittleEndian) { TLVLengthOrder.swap(&payload, in: 0..<payload.count, readingLittleEndian: true) }
        let newBody = ZlibCompressor().compress(payload)
        let checksum = CRC32.checksum(newBody)
        bytes.replaceSubrange(FrameHeader.size..<end, with: newBody)
        header.keep(.checksum, sent: stored)
        header.keep(.bodyLength, sent: UInt32(body.count))
        FrameHeader.Field.bodyLength.set(UInt32(newBody.count), in: &bytes)
        FrameHeader.Field.checksum.set(checksumHolds ? checksum : ~checksum, in: &bytes)
    }

    // MARK: - Encoding

    /// The frame this codec writes for `header`'s fields and `payload`.
    public func encode(_ header: FrameHeader, payload given: [UInt8]) -> [UInt8] {
        var payload = given
        if mistakes.contains(.tlvLengthLittleEndian) { TLVLengthOrder.swap(&payload, in: 0..<payload.count, readingLittleEndian: false) }
        var sent = header
        let zlib = header.compressType == .zlib && header.encryptType != .aes256
        let withoutCompressing = mistakes.contains(.zlibFlagWithoutCompressing) && zlib
        let emptyStream = mistakes.contains(.emptyZlibBodyInflated) && zlib && payload.isEmpty && !withoutCompressing
        if withoutCompressing || emptyStream { sent.compressType = .none }
        var encoder = FrameEncoder()
        var bytes = encoder.encode(sent, payload: emptyStream ? ZlibCompressor().compress(payload) : payload)
        if withoutCompressing || emptyStream { FrameHeader.Field.compressType.set(UInt32(CompressType.zlib.rawValue), in: &bytes) }
        if mistakes.contains(.checksumOfInflatedBody), zlib, !payload.isEmpty {
            FrameHeader.Field.checksum.set(CRC32.checksum(payload), in: &bytes)
        }
        if mistakes.contains(.checksumWithoutFinalXOR) {
            FrameHeader.Field.checksum.set(~FrameHeader.Field.checksum.value(in: bytes), in: &bytes)
        }
        if mistakes.contains(.bodyLengthCountsHeader) {
            FrameHeader.Field.bodyLength.set(FrameHeader.Field.bodyLength.value(in: bytes) + UInt32(FrameHeader.size), in: &bytes)
        }
        if mistakes.contains(.checksumLittleEndian) { bytes[FrameHeader.Field.checksum.offset..<FrameHeader.size].reverse() }
        return bytes
    }
}
