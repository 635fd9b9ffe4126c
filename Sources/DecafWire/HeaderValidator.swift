/// The receiver's header checks, in the brief's order: BAD_MAGIC, VERSION_UNSUPPORTED,
/// BODY_TOO_LARGE, UNSUPPORTED_ENCRYPTION, UNSUPPORTED_COMPRESSION, TIMESTAMP_OUT_OF_WINDOW.
///
/// It judges a header prefix as far as the bytes go: a check runs once its field and the fields of
/// every earlier check have arrived. A stream decoder can therefore reject garbage after four bytes
/// and an oversized body from the header alone, and still report exactly what a receiver holding
/// the whole header would.
public enum HeaderValidator {
    /// Throws the first failing check that `prefix` (the first bytes of a frame, possibly followed
    /// by more) can decide. Inlined into the frame decoder's loop.
    @inline(__always)
    public static func validate(prefix: UnsafeRawBufferPointer, options: DecodeOptions) throws(WireError) {
        typealias Field = FrameHeader.Field
        func arrived(_ field: Field) -> Bool { prefix.count >= field.range.upperBound }

        guard arrived(.magic) else { return }
        let magic = prefix.bigEndianUInt32(at: Field.magic.offset)
        guard magic == FrameHeader.magic else {
            throw WireError(.badMagic(found: magic), offset: Field.magic.offset)
        }

        guard arrived(.versionMinor) else { return }
        let version = ProtocolVersion(major: prefix[Field.versionMajor.offset], minor: prefix[Field.versionMinor.offset])
        if version.major != options.version.major {
            throw WireError(.majorVersionUnsupported(found: version, supported: options.version), offset: Field.versionMajor.offset)
        }
        if version.minor > options.version.minor {
            throw WireError(.minorVersionUnsupported(found: version, supported: options.version), offset: Field.versionMajor.offset)
        }

        guard arrived(.bodyLength) else { return }
        let bodyLength = prefix.bigEndianUInt32(at: Field.bodyLength.offset)
        if Int(bodyLength) > options.bodyLimit {
            throw WireError(.bodyTooLarge(length: bodyLength, limit: options.bodyLimit), offset: Field.bodyLength.offset)
        }

        let encrypt = EncryptType(rawValue: prefix[Field.encryptType.offset])
        if !encrypt.isKnown {
            throw WireError(.unknownEncryption(encrypt), offset: Field.encryptType.offset)
        }
        if encrypt == .aes256 && !options.acceptsEncryptedBodies {
            throw WireError(.undecryptableBody, offset: Field.encryptType.offset)
        }

        let compress = CompressType(rawValue: prefix[Field.compressType.offset])
        if !compress.isKnown {
            throw WireError(.unknownCompression(compress), offset: Field.compressType.offset)
        }

        if let window = options.timestampWindow {
            let timestamp = prefix.bigEndianUInt32(at: Field.timestamp.offset)
            if !window.admits(timestamp) {
                throw WireError(
                    .timestampOutOfWindow(timestamp: timestamp, now: window.now, window: window.seconds),
                    offset: Field.timestamp.offset
                )
            }
        }
    }
}
