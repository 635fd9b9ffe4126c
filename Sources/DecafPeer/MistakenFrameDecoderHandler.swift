import DecafDiagnosis
import DecafWire
import NIOCore

/// The peer's frame decoder with codec mistakes planted (`decaf peer --mistake`): each frame, as
/// far as its header says it reaches, is decoded by `CodecModel` (the reference with the mistakes)
/// instead of DecafWire's `FrameDecoder`, so a server that reads a field the wrong way or leaves a
/// check out is one option away, and the server suite's cases about that rule have a target
/// (`ServerTargets`). A header the mistaken codec refuses whatever follows is refused as soon as
/// it is in, as the reference peer refuses one; bytes are kept (in the handler's buffer) until
/// their frame is whole, at most a body of `CodecModel.unlimitedBody` (64 MiB) or the body limit
/// if larger: a longer one a mistake lets through is waited for without being kept. Used only
/// with a mistake: it copies each whole frame out for the model, which the reference decoder
/// does not.
struct MistakenFrameDecoderHandler: ByteToMessageDecoder {
    typealias InboundOut = Frame

    private let model: CodecModel
    private var options: DecodeOptions
    /// The receiver's clock for the timestamp window, read per read.
    private let now: () -> UInt32
    /// A frame longer than any bound, being waited for: how much of it came, of how much.
    private var overlong: (received: Int, expected: Int)?

    init(mistakes: Set<CodecMistake>, options: DecodeOptions, now: @escaping () -> UInt32) {
        model = CodecModel(mistakes)
        self.options = options
        self.now = now
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if var waiting = overlong {
            waiting.received += buffer.readableBytes
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            overlong = waiting
            return .needMoreData
        }
        if options.timestampWindow != nil { options.timestampWindow?.now = now() }
        while let header = buffer.getBytes(at: buffer.readerIndex, length: FrameHeader.size) {
            if case let .error(error) = model.decode(header, options: options), error.code != .truncatedFrame {
                throw error
            }
            let length = FrameHeader.size + Int(FrameHeader.Field.bodyLength.value(in: header))
            if length > FrameHeader.size + max(options.bodyLimit, CodecModel.unlimitedBody) {
                // A body this codec would wait for but that no bound could hold: waited for without
                // keeping it (what arrives is counted and dropped), as nothing of it is answered.
                overlong = (received: buffer.readableBytes, expected: length)
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                return .needMoreData
            }
            guard let frame = buffer.readBytes(length: length) else { break }
            switch model.decode(frame, options: options) {
            case let .frame(frame): context.fireChannelRead(wrapInboundOut(frame))
            case let .error(error): throw error
            }
        }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        _ = try decode(context: context, buffer: &buffer)
        if seenEOF, let waiting = overlong, waiting.received < waiting.expected {
            overlong = nil
            throw WireError(.truncatedFrame(received: waiting.received, expected: waiting.expected), offset: 0)
        }
        if seenEOF, let rest = buffer.readBytes(length: buffer.readableBytes), !rest.isEmpty, case let .error(error) = model.decode(rest, options: options) {
            throw error
        }
        return .needMoreData
    }
}
