
/// A frame to send: its header fields and its payload (the TLV bytes, or opaque bytes under
/// AES256). `FrameEncoderHandler` computes body_length and the checksum and compresses the body
/// when the header says ZLIB.
public struct OutgoingFrame: Hashable, Sendable {
    /// The header to send; body_length and checksum are computed when it is encoded.
    public var header: FrameHeader
    /// The TLV bytes before compression (or opaque bytes under AES256).
    public var payload: [UInt8]

    /// A frame of `header` with `payload` as its body.
    public init(header: FrameHeader, payload: [UInt8] = []) {
        self.header = header
        self.payload = payload
    }

    /// A frame of `header` whose body is `fields`, encoded.
    public init(header: FrameHeader, fields: [TLVField]) {
        self.init(header: header, payload: TLVEncoder.encode(fields))
    }
}
