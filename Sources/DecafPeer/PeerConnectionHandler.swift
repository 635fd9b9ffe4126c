import DecafNIO
import DecafSession
import DecafWire
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Runs one connection of the reference peer: hands each frame and each fatal error to the
/// connection's `PeerSession` and carries out the actions it returns, closes an idle connection
/// (EX-6), stops reading from a client that does not read its replies, and logs a summary when the
/// connection ends.
final class PeerConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = OutgoingFrame

    private var session: PeerSession
    private var logger: Logger
    private let clock: @Sendable () -> UInt32
    private let statistics: NIOLockedValueBox<PeerStatistics>
    /// The server's memory of repeats, shared by its connections.
    private let replay: NIOLockedValueBox<ReplayMemory>
    private let onDelivery: (@Sendable (FrameHeader) -> Void)?
    private var closing = false
    private var closeReason = "closed by the client"

    init(configuration: PeerConfiguration, logger: Logger, statistics: NIOLockedValueBox<PeerStatistics>,
         replay: NIOLockedValueBox<ReplayMemory>, clock: @escaping @Sendable () -> UInt32, onDelivery: (@Sendable (FrameHeader) -> Void)?) {
        session = PeerSession(configuration: configuration)
        self.onDelivery = onDelivery
        self.logger = logger
        self.statistics = statistics
        self.replay = replay
        self.clock = clock
    }

    func channelActive(context: ChannelHandlerContext) {
        logger.info("connection opened")
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let frame = unwrapInboundIn(data)
        logger.trace("frame in", metadata: ["type": "\(frame.header.messageType)", "sequence": "\(frame.header.sequence)"])
        let now = clock()
        let actions = replay.withLockedValue { session.receive(frame, now: now, replay: &$0) }
        perform(actions, context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard !closing else { return }
        if let error = error as? WireError {
            logger.notice("protocol error", metadata: ["error": "\(error)"])
            statistics.withLockedValue { $0.protocolErrors += 1 }
            perform(session.fail(error, now: clock()), context: context)
        } else {
            logger.info("connection error", metadata: ["error": "\(error)"])
            close(context: context, reason: "connection error: \(error)")
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleTimeoutHandler.Expired {
            close(context: context, reason: "idle for \(session.configuration.idleTimeout), closed (EX-6)")
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        if !writable {
            logger.notice("client is not reading its replies; stopped reading from it until they drain")
            statistics.withLockedValue { $0.readPauses += 1 }
        }
        context.channel.setOption(ChannelOptions.autoRead, value: writable).whenFailure { _ in }
        if writable { context.read() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        logger.info("connection closed", metadata: ["reason": "\(closeReason)", "summary": "\(session.summary)"])
        let summary = session.summary
        statistics.withLockedValue {
            $0.framesReceived += summary.framesIn.values.reduce(0, +)
            $0.framesDelivered += summary.delivered
            $0.repeats += summary.repeats
        }
        context.fireChannelInactive()
    }

    private func perform(_ actions: [PeerAction], context: ChannelHandlerContext) {
        var lastWrite: EventLoopFuture<Void>?
        for action in actions {
            switch action {
            case let .send(frame, delay) where delay == .zero:
                lastWrite = context.write(wrapOutboundOut(frame))
            case let .send(frame, delay):
                schedule(frame, after: delay, context: context)
            case let .deliver(header):
                logger.debug("delivered", metadata: ["sequence": "\(header.sequence)"])
                onDelivery?(header)
            case let .abort(reason):
                logger.critical("planted fault: \(reason); aborting")
                fatalError("planted fault: \(reason)")
            case let .close(reason):
                context.flush()
                closing = true
                closeReason = reason
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                (lastWrite ?? context.eventLoop.makeSucceededVoidFuture()).whenComplete { _ in
                    bound.value.close(promise: nil)
                }
                return
            }
        }
        context.flush()
    }

    private func schedule(_ frame: OutgoingFrame, after delay: Duration, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: TimeAmount(delay)) {
            let (handler, context) = bound.value
            guard !handler.closing, context.channel.isActive else { return }
            context.writeAndFlush(handler.wrapOutboundOut(frame), promise: nil)
        }
    }

    private func close(context: ChannelHandlerContext, reason: String) {
        closing = true
        closeReason = reason
        context.close(promise: nil)
    }
}
