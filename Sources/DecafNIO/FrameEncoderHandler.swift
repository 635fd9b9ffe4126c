import DecafWire
import NIOCore

/// Writes `OutgoingFrame`s as wire bytes with DecafWire's `FrameEncoder`. Use it as
/// `MessageToByteHandler(FrameEncoderHandler())`.
public final class FrameEncoderHandler: MessageToByteEncoder {
    /// A frame to send.
    public typealias OutboundIn = OutgoingFrame

    private var encoder: FrameEncoder
    private var scratch: [UInt8] = []

    /// An encoder compressing ZLIB bodies at `compressionLevel`.
    public init(compressionLevel: Int = ZlibCompressor.defaultLevel) {
        encoder = FrameEncoder(compressionLevel: compressionLevel)
    }

    /// Writes the frame's bytes, with body_length and checksum computed.
    public func encode(data: OutgoingFrame, out: inout ByteBuffer) throws {
        scratch.removeAll(keepingCapacity: true)
        encoder.append(data.header, payload: data.payload, to: &scratch)
        out.writeBytes(scratch)
    }
}
