/// A frame a decoder accepted: its header, its body as it travelled, and the TLV bytes it carries.
///
/// `body` and `payload` share storage with the bytes the decoder was given (for an uncompressed
/// body, `payload` is `body`), so taking a frame out of a stream copies nothing.
public struct Frame: Hashable, Sendable {
    public var header: FrameHeader
    /// The body exactly as sent: compressed or opaque bytes included.
    public var body: ArraySlice<UInt8>
    /// The TLV bytes: the body after decompression; empty when the body is opaque (AES256).
    public var payload: ArraySlice<UInt8>
    /// Where the frame starts in the decoded stream.
    public var streamOffset: Int

    public init(header: FrameHeader, body: ArraySlice<UInt8>, payload: ArraySlice<UInt8>, streamOffset: Int = 0) {
        self.header = header
        self.body = body
        self.payload = payload
        self.streamOffset = streamOffset
    }

    /// The body's TLV fields, read in place.
    public var fields: TLVSequence { TLVSequence(payload) }

    /// True when the body is encrypted and so left unparsed.
    public var isOpaque: Bool { header.encryptType == .aes256 }

    /// Bytes the frame occupies on the wire.
    public var wireLength: Int { FrameHeader.size + body.count }

    /// True when the sequence's category does not fit the message type (SEQ-2): a warning only.
    public var hasSequenceCategoryMismatch: Bool { header.sequence.category.mismatches(header.messageType) }
}
