import NIOCore

/// Tells the pipeline (`Expired`, a user inbound event) when a connection has read nothing for
/// `timeout` (EX-6). Unlike NIO's `IdleStateHandler`, which reads the wall clock, it keeps time by
/// its event loop's clock (`EventLoop.now`), so a connection in memory (`SimulatedServerCase`,
/// on an `EmbeddedEventLoop`) idles on the loop's virtual time exactly as a socket does on real time.
final class IdleTimeoutHandler: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    /// The connection has read nothing for the timeout.
    struct Expired {}

    private let timeout: TimeAmount
    private var lastRead: NIODeadline?
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = context.eventLoop.now
        context.fireChannelRead(data)
    }

    private func start(context: ChannelHandlerContext) {
        guard check == nil else { return }
        lastRead = context.eventLoop.now
        schedule(at: context.eventLoop.now + timeout, context: context)
    }

    /// Checks at `deadline` whether a read came meanwhile; if one did, checks again a timeout after it.
    private func schedule(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            guard let lastRead = handler.lastRead, context.channel.isActive else { return }
            let due = lastRead + handler.timeout
            if context.eventLoop.now >= due {
                handler.check = nil
                context.fireUserInboundEventTriggered(Expired())
            } else {
                handler.schedule(at: due, context: context)
            }
        }
    }
}
