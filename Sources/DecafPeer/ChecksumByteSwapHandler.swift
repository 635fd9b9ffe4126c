import DecafWire
import NIOCore

/// The `crc-little-endian` fault: rewrites the checksum of every frame the peer sends in
/// little-endian, the interoperability defect CRC-3 describes. Each write it sees is one encoded
/// frame.
final class ChecksumByteSwapHandler: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var buffer = unwrapOutboundIn(data)
        let offset = buffer.readerIndex + FrameHeader.Field.checksum.offset
        if let checksum = buffer.getInteger(at: offset, endianness: .big, as: UInt32.self) {
            buffer.setInteger(checksum, at: offset, endianness: .little)
        }
        context.write(wrapOutboundOut(buffer), promise: promise)
    }
}
