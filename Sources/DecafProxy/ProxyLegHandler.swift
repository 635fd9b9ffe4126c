import NIOCore

/// One leg of a proxied connection: passes what it reads, the end of its input (a FIN) and its
/// close to the connection.
final class ProxyLegHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let connection: NIOLoopBound<ProxyConnection>
    private let side: ProxySide

    init(connection: NIOLoopBound<ProxyConnection>, side: ProxySide) {
        self.connection = connection
        self.side = side
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.value.read(unwrapInboundIn(data), from: side)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        connection.value.readComplete(from: side)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { connection.value.inputEnded(side) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.value.closed(side)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
