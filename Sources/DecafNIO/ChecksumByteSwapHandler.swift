import DecafWire
import NIOCore

/// The peer's `crc-little-endian` and the client's `checksum-in-host-order` faults: rewrites the
/// checksum of every frame sent in little-endian, the interoperability defect CRC-3 describes.
/// Each write it sees is one encoded frame.
public final class ChecksumByteSwapHandler: ChannelOutboundHandler {
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    public init() {}

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var buffer = unwrapOutboundIn(data)
        let offset = buffer.readerIndex + FrameHeader.Field.checksum.offset
        if let checksum = buffer.getInteger(at: offset, endianness: .big, as: UInt32.self) {
            buffer.setInteger(checksum, at: offset, endianness: .little)
        }
        context.write(wrapOutboundOut(buffer), promise: promise)
    }
}
