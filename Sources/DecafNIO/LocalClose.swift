import NIOCore

/// Records that this side closed its channel, so that what the close cuts short is not taken for
/// the peer's doing: NIO tells a channel's handlers the same `channelInactive`, and a frame
/// decoder the same end of input, whichever side closed. Loop-bound: read it on the channel's loop.
public final class LocalClose: ChannelOutboundHandler {
    /// Anything written: the handler only watches closes.
    public typealias OutboundIn = Any

    /// This side asked the channel to close.
    public private(set) var happened = false

    /// A handler for one channel, nothing closed yet.
    public init() {}

    /// Notes that this side closes, then closes.
    public func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all { happened = true }
        context.close(mode: mode, promise: promise)
    }
}
