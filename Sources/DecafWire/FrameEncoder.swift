/// Builds frames: computes body_length and checksum (CRC-1), compresses the body when the header
/// says ZLIB (ZLIB-1), and carries the encrypt flag as given. It keeps one compressor across
/// frames; copies of an encoder get their own compressor when they first need one.
public struct FrameEncoder {
    /// The zlib level of the bodies it compresses (1-9).
    public let compressionLevel: Int
    private var compressor: ZlibCompressor?

    /// An encoder compressing at `compressionLevel`.
    public init(compressionLevel: Int = ZlibCompressor.defaultLevel) {
        self.compressionLevel = compressionLevel
    }

    /// The body as it will travel for `payload` (the TLV bytes, or opaque bytes under AES256).
    ///
    /// It is compressed only for compress_type ZLIB with a non-empty payload and a body that is not
    /// opaque: an empty body is empty whatever the flag says (ZLIB-3), and an encrypted body is
    /// already in its final form. Unknown compress_types leave the payload as it is, which is how
    /// malformed frames are crafted.
    public mutating func body(for header: FrameHeader, payload: some Collection<UInt8>) -> [UInt8] {
        guard header.compressType == .zlib, header.encryptType != .aes256, !payload.isEmpty else {
            return Array(payload)
        }
        if isKnownUniquelyReferenced(&compressor), let compressor { return compressor.compress(payload) }
        let fresh = ZlibCompressor(level: compressionLevel)
        compressor = fresh
        return fresh.compress(payload)
    }

    /// Appends the frame for `header`'s fields and `payload` to `out`; the header's body_length
    /// and checksum are replaced by the computed ones.
    public mutating func append(_ header: FrameHeader, payload: some Collection<UInt8>, to out: inout [UInt8]) {
        let body = body(for: header, payload: payload)
        var header = header
        header.bodyLength = UInt32(body.count)
        header.checksum = CRC32.checksum(body)
        header.append(to: &out)
        out.append(contentsOf: body)
    }

    /// The frame for `header`'s fields and `payload`, with body_length and checksum computed.
    public mutating func encode(_ header: FrameHeader, payload: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        append(header, payload: payload, to: &out)
        return out
    }

    /// The frame for `header`'s fields and `fields` as its body.
    public mutating func encode(_ header: FrameHeader, fields: [TLVField]) -> [UInt8] {
        encode(header, payload: TLVEncoder.encode(fields))
    }
}
