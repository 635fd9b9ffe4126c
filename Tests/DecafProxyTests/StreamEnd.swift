import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// One end of a test connection that may send a stream and end it, and answer the other side's
/// end: it sends `opening` as soon as it is connected and then half-closes (or closes), and once
/// the other side's FIN has come it sends `answer` and closes. It keeps what it received and
/// whether a FIN ended it.
final class StreamEnd: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How an end finishes what it sends.
    enum Closing: Sendable, CaseIterable {
        /// shutdown(SHUT_WR): it goes on reading.
        case half
        /// close(): it reads nothing more.
        case full
    }

    /// What came to this end: the bytes, and whether a FIN followed them (not a reset).
    struct Received: Sendable {
        var bytes: [UInt8] = []
        var finished = false
    }

    private let opening: [UInt8]?
    private let closing: Closing
    private let answer: [UInt8]?
    private struct State {
        var received = Received()
        var done = false
        /// The connection failed (a reset), or this end closed it: its close was no FIN.
        var notByFIN = false
        var waiter: CheckedContinuation<(received: Received, ended: Bool), Never>?
    }

    private let state = NIOLockedValueBox(State())

    init(opening: [UInt8]? = nil, closing: Closing = .half, answer: [UInt8]? = nil) {
        self.opening = opening
        self.closing = closing
        self.answer = answer
    }

    /// What came, once the other side ended its stream or the connection closed; after `limit`,
    /// what has come so far, with `ended` false, so a test that waits in vain says how far it got.
    func received(within limit: TimeAmount = .seconds(30)) async -> (received: Received, ended: Bool) {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state -> Received? in
                if state.done { return state.received }
                state.waiter = continuation
                return nil
            }
            if let ready { return continuation.resume(returning: (ready, true)) }
            MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: limit) { [state] in
                let late = state.withLockedValue { state -> (CheckedContinuation<(received: Received, ended: Bool), Never>, Received)? in
                    guard let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return (waiter, state.received)
                }
                if let (waiter, received) = late { waiter.resume(returning: (received, false)) }
            }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        if let opening {
            if closing == .full { state.withLockedValue { $0.notByFIN = true } }
            // A full close fails writes still queued: it comes once the bytes are written.
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: opening))).whenComplete { _ in
                channel.close(mode: self.closing == .half ? .output : .all, promise: nil)
            }
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        state.withLockedValue { $0.received.bytes += buffer.readableBytesView }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case ChannelEvent.inputClosed = event else { return context.fireUserInboundEventTriggered(event) }
        state.withLockedValue { state in
            state.received.finished = true
            state.notByFIN = true
        }
        if let answer { context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: answer)), promise: nil) }
        context.close(promise: nil)
        finish()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // After its own half-close, a FIN closes the channel without an inputClosed event.
        state.withLockedValue { state in
            if !state.notByFIN { state.received.finished = true }
        }
        finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        state.withLockedValue { $0.notByFIN = true }
        context.close(promise: nil)
    }

    private func finish() {
        let (waiter, received) = state.withLockedValue { state in
            state.done = true
            defer { state.waiter = nil }
            return (state.waiter, state.received)
        }
        waiter?.resume(returning: (received, true))
    }

    /// A server on a free loopback port whose one connection is `end`.
    static func listen(_ end: StreamEnd) async throws -> Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(end) } }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    /// Connects `end` to `port` on loopback.
    static func connect(_ end: StreamEnd, port: Int) async throws -> Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(end) } }
            .connect(host: "127.0.0.1", port: port).get()
    }
}
