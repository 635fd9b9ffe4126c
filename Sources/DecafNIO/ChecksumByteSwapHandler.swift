import DecafWire
import NIOCore

/// The peer's `crc-little-endian` and the client's `checksum-in-host-order` faults: rewrites the
/// checksum of every frame sent in little-endian, the interoperability defect CRC-3 describes.
/// Each write it sees is one encoded frame.
public final class ChecksumByteSwapHandler: ChannelOutboundHandler {
    /// An encoded frame.
    public typealias OutboundIn = ByteBuffer
    /// The same frame with its checksum byte-swapped.
    public typealias OutboundOut = ByteBuffer

    /// A handler for one channel.
    public init() {}

    /// Writes the frame with its checksum in little-endian.
    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var buffer = unwrapOutboundIn(data)
        let offset = buffer.readerIndex + FrameHeader.Field.checksum.offset
        if let checksum = buffer.getInteger(at: offset, endianness: .big, as: UInt32.self) {
            buffer.setInteger(checksum, at: offset, endianness: .little)
        }
        context.write(wrapOutboundOut(buffer), promise: promise)
    }
}
