/// A frame a decoder accepted: its header, its body as it travelled, and the TLV bytes it carries.
///
/// `body` shares storage with the bytes the decoder was given, so taking a frame out of a stream
/// copies nothing; only a compressed body has storage of its own for its inflated bytes.
public struct Frame: Hashable, Sendable {
    /// The frame's header as it arrived.
    public var header: FrameHeader
    /// The body exactly as sent: compressed or opaque bytes included.
    public var body: ArraySlice<UInt8>
    /// Where the frame starts in the decoded stream.
    public var streamOffset: Int
    /// The inflated body of a compressed frame.
    private var inflated: [UInt8]?

    /// A frame whose payload is `body` itself, or, for a compressed frame, `inflated`.
    public init(header: FrameHeader, body: ArraySlice<UInt8>, inflated: [UInt8]? = nil, streamOffset: Int = 0) {
        self.header = header
        self.body = body
        self.inflated = inflated
        self.streamOffset = streamOffset
    }

    /// The TLV bytes: the body after decompression; empty when the body is opaque (AES256).
    public var payload: ArraySlice<UInt8> {
        if isOpaque { return [] }
        return inflated.map { $0[...] } ?? body
    }

    /// The body's TLV fields, read in place.
    public var fields: TLVSequence { TLVSequence(payload) }

    /// True when the body is encrypted and so left unparsed.
    public var isOpaque: Bool { header.encryptType == .aes256 }

    /// Bytes the frame occupies on the wire.
    public var wireLength: Int { FrameHeader.size + body.count }

    /// Runs `body` with a view of the frame, as `FrameDecoder.decodeFrames(_:)` hands frames out.
    public func withView<R>(_ body: (FrameView) throws -> R) rethrows -> R {
        let bytes = header.bytes + self.body
        return try bytes.withUnsafeBytes { frameBytes in
            try payload.withUnsafeBytes { payloadBytes in
                try body(FrameView(bytes: frameBytes, streamOffset: streamOffset, payload: payloadBytes))
            }
        }
    }

    /// True when the sequence's category does not fit the message type (SEQ-2): a warning only.
    public var hasSequenceCategoryMismatch: Bool { header.sequence.category.mismatches(header.messageType) }
}
