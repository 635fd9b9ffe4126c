import NIOCore

/// The planted fault `ignores-stream-end`: swallows the end of the client's stream (a half-closed
/// connection's `ChannelEvent.inputClosed`), so the decoder never learns that a frame it holds
/// was cut short and the connection stays open, as a server that never reads its socket's end
/// of file does. The channel must allow half-closure (`PeerServer.closesOnStreamEnd`).
final class StreamEndBlindness: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { return }
        context.fireUserInboundEventTriggered(event)
    }
}
