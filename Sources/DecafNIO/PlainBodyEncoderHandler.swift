import DecafWire
import NIOCore

/// The client's `plain-body-marked-zlib` fault: writes each frame whose header says ZLIB with its
/// body left uncompressed (its checksum that of the bytes sent) and compress_type 1 all the same,
/// the ZLIB-1 defect of a client that sets the flag and forgets to compress. Frames without ZLIB
/// are written as `FrameEncoderHandler` writes them.
public final class PlainBodyEncoderHandler: MessageToByteEncoder {
    /// A frame to send.
    public typealias OutboundIn = OutgoingFrame

    private var encoder = FrameEncoder()
    private var scratch: [UInt8] = []

    /// A handler for one channel.
    public init() {}

    /// Writes the frame, a ZLIB body left uncompressed and marked ZLIB all the same.
    public func encode(data: OutgoingFrame, out: inout ByteBuffer) throws {
        var header = data.header
        let marked = header.compressType == .zlib && !data.payload.isEmpty
        if marked { header.compressType = .none }
        scratch.removeAll(keepingCapacity: true)
        encoder.append(header, payload: data.payload, to: &scratch)
        if marked { scratch[FrameHeader.Field.compressType.offset] = CompressType.zlib.rawValue }
        out.writeBytes(scratch)
    }
}
