import DecafWire
import NIOCore

/// A client's decoder with the planted fault `frame-per-read`: each read is taken as one frame,
/// as a client that reads "a message" per socket read does. The first frame of a read is passed
/// on and the rest of the read dropped; a read shorter than a frame is thrown away. Frames that
/// come split or coalesced (FRAME-3) are lost, which the client suite's framing cases must see.
struct FramePerReadDecoderHandler: ByteToMessageDecoder {
    typealias InboundOut = Frame

    private let options: DecodeOptions

    init(options: DecodeOptions) {
        self.options = options
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        var decoder = FrameDecoder(options: options)
        decoder.append(buffer.readBytes(length: buffer.readableBytes) ?? [])
        if let frame = try decoder.nextFrame() { context.fireChannelRead(wrapInboundOut(frame)) }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }
}
