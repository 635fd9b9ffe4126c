import DecafWire
import NIOCore

/// Writes `OutgoingFrame`s as wire bytes with DecafWire's `FrameEncoder`. Use it as
/// `MessageToByteHandler(FrameEncoderHandler())`.
public final class FrameEncoderHandler: MessageToByteEncoder {
    public typealias OutboundIn = OutgoingFrame

    private var encoder: FrameEncoder
    private var scratch: [UInt8] = []

    public init(compressionLevel: Int = ZlibCompressor.defaultLevel) {
        encoder = FrameEncoder(compressionLevel: compressionLevel)
    }

    public func encode(data: OutgoingFrame, out: inout ByteBuffer) throws {
        scratch.removeAll(keepingCapacity: true)
        encoder.append(data.header, payload: data.payload, to: &scratch)
        out.writeBytes(scratch)
    }
}
