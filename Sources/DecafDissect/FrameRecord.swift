import DecafWire

/// One frame as a dissector shows it, owned: its bytes, what DecafWire made of them, and, for a
/// frame that failed, the error and as much of the frame as can still be read. Everything read
/// from it is read from its parts (`withParts`), the form frames in place take too.
public struct FrameRecord: Sendable {
    /// 1-based position among the frames (good or bad) of the stream.
    public var index: Int
    public var streamOffset: Int
    /// The frame's bytes, as far as they arrived.
    public var bytes: [UInt8]
    /// The header, when all 28 bytes arrived and they start with the magic: bytes without it are
    /// not a frame, and reading fields from them would only mislead.
    public var header: FrameHeader?
    /// The TLV bytes, when they can be read: always for a good frame; for a frame that failed on
    /// its checksum or its TLV rules, what the body holds.
    public var payload: [UInt8]?
    public var error: WireError?
    /// For a frame that failed its checksum, the first TLV rule its (untrusted) body would also
    /// break, if any: shown as a note, and where the shown fields stop.
    public var untrustedBodyError: WireError?

    /// An owned copy of the frame `parts` shows.
    public init(_ parts: FrameParts) {
        index = parts.index
        streamOffset = parts.streamOffset
        bytes = Array(parts.bytes)
        header = parts.header
        payload = parts.payload.map(Array.init)
        error = parts.error
        untrustedBodyError = parts.untrustedBodyError
    }

    /// The record of a frame DecafWire refused with `error`, from the bytes that arrived of it.
    public init(index: Int, error: WireError, bytes: ArraySlice<UInt8>, options: DecodeOptions) {
        self.index = index
        streamOffset = error.frameOffset
        self.bytes = Array(bytes)
        header = error.code == .badMagic ? nil : FrameHeader(decoding: bytes)
        self.error = error
        payload = nil
        payload = withParts { Self.readablePayload(of: $0, options: options) }
        if error.code == .checksumMismatch, let payload {
            do { try TLVValidator.validate(payload, options: options.tlv) } catch { untrustedBodyError = error }
        }
    }

    /// The record seen in place, as the renderers and statistics read it.
    public func withParts<R>(_ body: (FrameParts) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { bytes in
            guard let payload else {
                return try body(FrameParts(index: index, streamOffset: streamOffset, bytes: bytes, header: header, payload: nil,
                                           error: error, untrustedBodyError: untrustedBodyError))
            }
            return try payload.withUnsafeBytes { payload in
                try body(FrameParts(index: index, streamOffset: streamOffset, bytes: bytes, header: header, payload: payload,
                                    error: error, untrustedBodyError: untrustedBodyError))
            }
        }
    }

    public var isValid: Bool { error == nil }

    /// The TLV bytes of a refused frame that can still be shown: its body survived the checks
    /// before TLV parsing (a TLV error), or it failed only its checksum.
    private static func readablePayload(of parts: FrameParts, options: DecodeOptions) -> [UInt8]? {
        guard let error = parts.error, let body = parts.body, !parts.isOpaque else { return nil }
        guard error.code == .checksumMismatch || error.code.countsOffsetFromBody else { return nil }
        guard parts.isCompressed else { return Array(body) }
        return try? ZlibInflater().inflate(body, limit: options.bodyLimit)
    }
}
