import DecafWire

/// A dissected frame seen in place: its bytes, what DecafWire made of them, and, for a frame that
/// failed, the error. It is the form every output and the statistics read, whether
/// the frame comes straight from the decoder's buffer or from a `FrameRecord`, so nothing is copied
/// for a frame that is only counted or printed. Valid only during the call that received it.
public struct FrameParts {
    /// 1-based position among the frames (good or bad) of the stream or capture.
    public var index: Int
    public var streamOffset: Int
    /// The frame's bytes, as far as they arrived.
    public var bytes: UnsafeRawBufferPointer
    /// The header, when all 28 bytes arrived and they start with the magic.
    public var header: FrameHeader?
    /// The TLV bytes, when they can be read: always for a good frame; for a frame that failed on
    /// its checksum or its TLV rules, what the body holds.
    public var payload: UnsafeRawBufferPointer?
    public var error: WireError?
    /// For a frame that failed its checksum, the first TLV rule its (untrusted) body would break.
    public var untrustedBodyError: WireError?

    public init(index: Int, streamOffset: Int, bytes: UnsafeRawBufferPointer, header: FrameHeader?, payload: UnsafeRawBufferPointer?,
                error: WireError? = nil, untrustedBodyError: WireError? = nil) {
        self.index = index
        self.streamOffset = streamOffset
        self.bytes = bytes
        self.header = header
        self.payload = payload
        self.error = error
        self.untrustedBodyError = untrustedBodyError
    }

    /// The parts of a frame DecafWire accepted, numbered `index`.
    public init(index: Int, view: FrameView) {
        let header = view.header
        self.init(index: index, streamOffset: view.streamOffset, bytes: view.bytes, header: header,
                  payload: header.encryptType == .aes256 ? nil : view.payload)
    }

    public var isValid: Bool { error == nil }

    /// The body, when all of it arrived.
    public var body: UnsafeRawBufferPointer? {
        guard let header, bytes.count >= FrameHeader.size + Int(header.bodyLength) else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size..<(FrameHeader.size + Int(header.bodyLength))])
    }

    /// The CRC-32 of the body as it arrived, when all of it did.
    public var computedChecksum: UInt32? { body.map { CRC32.checksum($0) } }

    /// True when the body is a zlib stream (compress_type ZLIB, not empty, not opaque).
    public var isCompressed: Bool {
        guard let header, !isOpaque else { return false }
        return header.compressType == .zlib && header.bodyLength > 0
    }

    /// True when the body is encrypted and left unparsed.
    public var isOpaque: Bool { header?.encryptType == .aes256 }

    /// The frame's fields, each once: the model every output walks.
    @inline(__always)
    public var fields: FrameFields {
        FrameFields(bytes: bytes, header: header, payload: payload, isNotAFrame: error?.code == .badMagic, hasError: error != nil,
                    fieldLimit: tlvErrorOffset)
    }

    /// Body offset of the TLV error that ends the frame's readable fields: its own TLV error, or
    /// the one its untrusted body would raise. A parser stops there, so no field after it is shown.
    public var tlvErrorOffset: Int? {
        if let error, error.code.countsOffsetFromBody { return error.offset }
        return untrustedBodyError?.offset
    }

    /// What the frame does that the brief advises against but a receiver accepts, with the tags
    /// `registry` names read with their layouts. Building it allocates nothing for a frame without any.
    public func warnings(_ registry: FieldRegistry = .brief) -> [DissectionWarning] {
        var misfits = MisfitWarnings(warnings: headerWarnings)
        fields.walk(&misfits, naming: registry)
        return misfits.warnings
    }

    /// The warnings the header alone gives: an undefined msg_type, a sequence category that does
    /// not fit it, an opaque body.
    var headerWarnings: [DissectionWarning] {
        guard let header else { return [] }
        var warnings: [DissectionWarning] = []
        if !header.messageType.isKnown {
            warnings.append(DissectionWarning(.frame4, "msg_type \(header.messageType.rawValue) is not defined: a receiver checks the frame, skips it and does not acknowledge it"))
        }
        let category = header.sequence.category
        if category.mismatches(header.messageType), let expected = SequenceCategory.expected(for: header.messageType) {
            let names = expected.map(\.description).joined(separator: " or ")
            warnings.append(DissectionWarning(.seq2, "sequence category \(category) does not fit \(header.messageType) (expected \(names))"))
        }
        if isOpaque {
            warnings.append(DissectionWarning(.frame5, "encrypt_type 2 (AES256): the body is opaque and was not parsed"))
        }
        return warnings
    }
}
