/// The receiver's header checks, in the brief's order: BAD_MAGIC, VERSION_UNSUPPORTED,
/// BODY_TOO_LARGE, UNSUPPORTED_ENCRYPTION, UNSUPPORTED_COMPRESSION, TIMESTAMP_OUT_OF_WINDOW.
///
/// It judges a header prefix as far as the bytes go: a check runs once its field and the fields of
/// every earlier check have arrived. A stream decoder can therefore reject garbage after four bytes
/// and an oversized body from the header alone, and still report exactly what a receiver holding
/// the whole header would.
public enum HeaderValidator {
    /// Throws the first failing check that `prefix` (the first bytes of a frame) can decide.
    public static func validate(
        prefix: UnsafeRawBufferPointer, options: DecodeOptions
    ) throws(WireError) {
        typealias Offset = FrameHeader.Offset
        let count = prefix.count
        guard count >= Offset.magic + 4 else { return }
        let magic = prefix.bigEndianUInt32(at: Offset.magic)
        guard magic == FrameHeader.magic else {
            throw WireError(.badMagic(found: magic), offset: Offset.magic)
        }

        guard count >= Offset.versionMinor + 1 else { return }
        let version = ProtocolVersion(major: prefix[Offset.version], minor: prefix[Offset.versionMinor])
        if version.major != options.version.major {
            throw WireError(.majorVersionUnsupported(found: version, supported: options.version), offset: Offset.version)
        }
        if version.minor > options.version.minor {
            throw WireError(.minorVersionUnsupported(found: version, supported: options.version), offset: Offset.version)
        }

        guard count >= Offset.bodyLength + 4 else { return }
        let bodyLength = prefix.bigEndianUInt32(at: Offset.bodyLength)
        if Int(bodyLength) > options.bodyLimit {
            throw WireError(.bodyTooLarge(length: bodyLength, limit: options.bodyLimit), offset: Offset.bodyLength)
        }

        let encrypt = EncryptType(rawValue: prefix[Offset.encryptType])
        if !encrypt.isKnown {
            throw WireError(.unknownEncryption(encrypt), offset: Offset.encryptType)
        }
        if encrypt == .aes256 && !options.acceptsEncryptedBodies {
            throw WireError(.undecryptableBody, offset: Offset.encryptType)
        }

        let compress = CompressType(rawValue: prefix[Offset.compressType])
        if !compress.isKnown {
            throw WireError(.unknownCompression(compress), offset: Offset.compressType)
        }

        if let window = options.timestampWindow {
            let timestamp = prefix.bigEndianUInt32(at: Offset.timestamp)
            if !window.admits(timestamp) {
                throw WireError(
                    .timestampOutOfWindow(timestamp: timestamp, now: window.now, window: window.seconds),
                    offset: Offset.timestamp
                )
            }
        }
    }

    /// Throws the first failing header check of a complete header.
    public static func validate(_ header: FrameHeader, options: DecodeOptions) throws(WireError) {
        try withUnsafeTemporaryAllocation(byteCount: FrameHeader.size, alignment: 1) { buffer throws(WireError) in
            header.write(to: buffer)
            try validate(prefix: UnsafeRawBufferPointer(buffer), options: options)
        }
    }
}
