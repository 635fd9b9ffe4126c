import DecafWire
import NIOCore

/// Turns a connection's bytes into frames with DecafWire's `FrameDecoder`: split and coalesced
/// reads, the limits, and the brief's order of checks all come from there. A frame that breaks a
/// rule is passed on as a `WireError` through `errorCaught`, after which the decoder reads nothing
/// more: a receiver answers with an ERROR TLV and closes (EX-5).
///
/// Use it as `ByteToMessageHandler(FrameDecoderHandler(...))`.
public struct FrameDecoderHandler: ByteToMessageDecoder {
    public typealias InboundOut = Frame

    private var decoder: FrameDecoder
    /// The receiver's clock for the timestamp window (TS-1), read per frame when a window is set.
    private let now: (() -> UInt32)?

    /// A decoder with `options`. With a timestamp window in `options`, `now` supplies the current
    /// UNIX time for each read.
    public init(options: DecodeOptions = DecodeOptions(), now: (() -> UInt32)? = nil) {
        decoder = FrameDecoder(options: options)
        self.now = now
    }

    /// Moves what was read into the frame decoder and passes on every frame it completes. The
    /// bytes are all taken at once, so the handler's own buffer never holds more than one read.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if buffer.readableBytes > 0, let bytes = buffer.readBytes(length: buffer.readableBytes) {
            decoder.append(bytes)
        }
        if let now, decoder.options.timestampWindow != nil {
            decoder.options.timestampWindow?.now = now()
        }
        while let frame = try decoder.nextFrame() {
            context.fireChannelRead(wrapInboundOut(frame))
        }
        return .needMoreData
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        _ = try decode(context: context, buffer: &buffer)
        if seenEOF { try decoder.finish() }
        return .needMoreData
    }
}
