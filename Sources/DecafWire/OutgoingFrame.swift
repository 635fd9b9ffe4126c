
/// A frame to send: its header fields and its payload (the TLV bytes, or opaque bytes under
/// AES256). `FrameEncoderHandler` computes body_length and the checksum and compresses the body
/// when the header says ZLIB.
public struct OutgoingFrame: Hashable, Sendable {
    public var header: FrameHeader
    public var payload: [UInt8]

    public init(header: FrameHeader, payload: [UInt8] = []) {
        self.header = header
        self.payload = payload
    }

    public init(header: FrameHeader, fields: [TLVField]) {
        self.init(header: header, payload: TLVEncoder.encode(fields))
    }
}
