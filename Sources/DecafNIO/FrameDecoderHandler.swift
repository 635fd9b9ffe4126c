import DecafWire
import NIOCore

/// Turns a connection's bytes into frames with DecafWire's `FrameDecoder`: split and coalesced
/// reads, the limits, and the brief's order of checks all come from there. A frame that breaks a
/// rule is passed on as a `WireError` through `errorCaught`, after which the decoder reads nothing
/// more: a receiver answers with an ERROR TLV and closes (EX-5).
///
/// Use it as `ByteToMessageHandler(FrameDecoderHandler(...))`. With a `LocalClose` in the same
/// pipeline, a frame left unfinished because this side closed is passed on as `UnfinishedFrame`
/// (a user inbound event), not as TRUNCATED_FRAME: the peer's stream did not end.
public struct FrameDecoderHandler: ByteToMessageDecoder {
    /// Each frame decoded, in order.
    public typealias InboundOut = Frame

    private var decoder: FrameDecoder
    /// The receiver's clock for the timestamp window (TS-1), read per frame when a window is set.
    private let now: (() -> UInt32)?
    /// Whether a frame whose header breaks a rule is refused as soon as its header is in, as a
    /// stream decoder can, or only once its whole body is in or the stream ends. The brief allows
    /// both, except for a body too large: that is always refused from the header (FRAME-2).
    private let refusesFromHeader: Bool
    /// When refusing after the body: what arrived of a frame not yet complete.
    private var unfinished: [UInt8] = []
    /// Whether a header is judged only once all 28 bytes of it are in (interpretation 1, a
    /// receiver's choice: `ReceiverChoice.wholeHeader`): the bytes of a frame's header are held
    /// back until it is whole, and a stream that ends within one is TRUNCATED_FRAME at its start,
    /// whatever field it got wrong.
    private let judgesHeaderWhole: Bool
    /// When judging headers whole (and refusing from the header): the bytes of the frame under
    /// way still to pass on before the next frame's header is held back.
    private var frameRemaining = 0
    /// Tells whether this side closed the channel.
    private let localClose: LocalClose?

    /// A decoder with `options`. With a timestamp window in `options`, `now` supplies the current
    /// UNIX time for each read.
    public init(options: DecodeOptions = DecodeOptions(), now: (() -> UInt32)? = nil, refusesFromHeader: Bool = true, judgesHeaderWhole: Bool = false,
                localClose: LocalClose? = nil) {
        decoder = FrameDecoder(options: options)
        self.now = now
        self.refusesFromHeader = refusesFromHeader
        self.judgesHeaderWhole = judgesHeaderWhole
        self.localClose = localClose
    }

    /// Moves what was read into the frame decoder and passes on every frame it completes. The
    /// bytes are all taken at once, so the handler's own buffer never holds more than one read.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if buffer.readableBytes > 0, let bytes = buffer.readBytes(length: buffer.readableBytes) {
            if refusesFromHeader && !judgesHeaderWhole {
                decoder.append(bytes)
            } else if refusesFromHeader {
                unfinished += bytes
                passWholeHeaders()
            } else {
                unfinished += bytes
                while let length = completeFrameLength() {
                    decoder.append(Array(unfinished.prefix(length)))
                    unfinished.removeFirst(length)
                }
            }
        }
        if let now, decoder.options.timestampWindow != nil {
            decoder.options.timestampWindow?.now = now()
        }
        while let frame = try decoder.nextFrame() {
            context.fireChannelRead(wrapInboundOut(frame))
        }
        return .needMoreData
    }

    /// Decodes what is left when the channel ends: a frame cut short is TRUNCATED_FRAME if the peer ended the stream, an `UnfinishedFrame` event if this side closed.
    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        _ = try decode(context: context, buffer: &buffer)
        if seenEOF {
            if judgesHeaderWhole, frameRemaining == 0, !unfinished.isEmpty, unfinished.count < FrameHeader.size {
                // Every frame before it was passed on whole and taken.
                let received = unfinished.count
                unfinished = []
                guard localClose?.happened == true else {
                    throw WireError(.truncatedFrame(received: received, expected: nil), offset: decoder.streamOffset, frameOffset: decoder.streamOffset)
                }
                context.fireUserInboundEventTriggered(UnfinishedFrame(received: received, expected: nil))
                return .needMoreData
            }
            decoder.append(unfinished)
            unfinished = []
            while let frame = try decoder.nextFrame() {
                context.fireChannelRead(wrapInboundOut(frame))
            }
            do {
                try decoder.finish()
            } catch {
                guard localClose?.happened == true, case let .truncatedFrame(received, expected) = error.fault else { throw error }
                context.fireUserInboundEventTriggered(UnfinishedFrame(received: received, expected: expected))
            }
        }
        return .needMoreData
    }

    /// Passes on what of `unfinished` belongs to the frame under way, and of each next frame once
    /// its header is whole; a header cut short stays held back.
    private mutating func passWholeHeaders() {
        while !unfinished.isEmpty {
            if frameRemaining > 0 {
                let count = min(frameRemaining, unfinished.count)
                decoder.append(Array(unfinished.prefix(count)))
                unfinished.removeFirst(count)
                frameRemaining -= count
                continue
            }
            guard unfinished.count >= FrameHeader.size else { return }
            let bodyLength = Int(FrameHeader.Field.bodyLength.value(in: unfinished))
            // A header the decoder refuses ends the stream's reading: what follows it goes on as it comes.
            frameRemaining = FrameHeader.size + min(bodyLength, decoder.options.bodyLimit + 1)
        }
    }

    /// The length of the first frame in `unfinished` once all of it is there; everything there is
    /// at once when the header announces a body over the limit, which is refused from the header.
    private func completeFrameLength() -> Int? {
        guard unfinished.count >= FrameHeader.size else { return nil }
        let bodyLength = Int(FrameHeader.Field.bodyLength.value(in: unfinished))
        if bodyLength > decoder.options.bodyLimit { return unfinished.count }
        let length = FrameHeader.size + bodyLength
        return unfinished.count >= length ? length : nil
    }
}
