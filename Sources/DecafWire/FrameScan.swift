/// What the bytes at the start of a buffer hold, as far as they have arrived: the checks
/// `FrameDecoder` makes before it takes a frame, in the brief's order (the header as its fields
/// arrive, then the checksum, then the TLV rules of a body in clear that is not compressed). Pure.
enum FrameScan {
    /// The frame has not all arrived; `expected` is its length once its header is whole.
    case incomplete(expected: Int?)
    /// A whole frame of `length` bytes whose header, checksum and (for a body in clear that is
    /// not compressed) TLV rules hold.
    case frame(length: Int)

    /// Why `scan` refused a frame: its header, or, once the frame was whole, its body.
    enum Refusal: Error {
        case header(WireError)
        case body(WireError, length: Int)
    }

    /// Checks the frame at the start of `bytes` as far as it has arrived.
    @inline(__always)
    static func scan(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(Refusal) -> FrameScan {
        do {
            try HeaderValidator.validate(prefix: bytes, options: options)
        } catch {
            throw .header(error)
        }
        guard bytes.count >= FrameHeader.size else { return .incomplete(expected: nil) }
        let length = FrameHeader.size + Int(bytes.bigEndianUInt32(at: FrameHeader.Field.bodyLength.offset))
        guard bytes.count >= length else { return .incomplete(expected: length) }
        let body = UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size..<length])
        let computed = CRC32.checksum(body)
        let stored = bytes.bigEndianUInt32(at: FrameHeader.Field.checksum.offset)
        guard computed == stored || !options.verifiesChecksum else {
            throw .body(WireError(.checksumMismatch(stored: stored, computed: computed), offset: FrameHeader.Field.checksum.offset), length: length)
        }
        let compressed = bytes[FrameHeader.Field.compressType.offset] == CompressType.zlib.rawValue && !body.isEmpty
        guard bytes[FrameHeader.Field.encryptType.offset] != EncryptType.aes256.rawValue, !compressed else {
            return .frame(length: length)
        }
        do {
            try TLVValidator.validate(body, options: options.tlv)
        } catch {
            throw .body(error, length: length)
        }
        return .frame(length: length)
    }

    /// The length of the frame at the start of `bytes` when it is whole, in clear, uncompressed and
    /// passes every check; nil leaves it to `scan`, which says what is wrong or what is missing.
    /// The same validators, asked only whether they pass: most frames do, and saying why costs
    /// more than checking, which small frames feel.
    @inline(__always)
    static func acceptedLength(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) -> Int? {
        typealias Field = FrameHeader.Field
        guard bytes.count >= FrameHeader.size,
              bytes[Field.encryptType.offset] != EncryptType.aes256.rawValue,
              bytes[Field.compressType.offset] == CompressType.none.rawValue,
              (try? HeaderValidator.validate(prefix: bytes, options: options)) != nil
        else { return nil }
        let length = FrameHeader.size + Int(bytes.bigEndianUInt32(at: Field.bodyLength.offset))
        guard bytes.count >= length else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size..<length])
        guard !options.verifiesChecksum || CRC32.checksum(body) == bytes.bigEndianUInt32(at: Field.checksum.offset),
              (try? TLVValidator.validate(body, options: options.tlv)) != nil
        else { return nil }
        return length
    }

    /// `scan` for a decoder that wants only the header's verdict and the frame's length (a body
    /// at fault is judged when the frame is decoded).
    static func header(_ bytes: ArraySlice<UInt8>, options: DecodeOptions) throws(WireError) -> FrameScan {
        try bytes.withRawBytes { raw throws(WireError) in
            do throws(Refusal) {
                return try scan(raw, options: options)
            } catch {
                switch error {
                case let .header(error): throw error
                case let .body(_, length): return .frame(length: length)
                }
            }
        }
    }
}
