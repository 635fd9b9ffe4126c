import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A relay in front of a server that passes the first `served` connections through, and then,
/// like a server stopped with SIGSTOP, accepts every later one and never reads or answers: a
/// server that stops in the middle of a run, at a point that does not depend on timing.
/// `onAccepted` hears the number of each connection as it is accepted, on an event loop: a test
/// can act at a connection (interrupt the client) however late its own task would resume.
public final class StoppingRelay: Sendable {
    private let channel: Channel

    private init(channel: Channel) {
        self.channel = channel
    }

    /// The port it listens on.
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Starts a relay on a free loopback port in front of `upstreamPort`.
    public static func start(upstreamPort: Int, served: Int = .max, onAccepted: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> StoppingRelay {
        let accepted = NIOLockedValueBox(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { client in
                let number = accepted.withLockedValue { count in
                    count += 1
                    return count
                }
                onAccepted(number)
                // Past the connections served, the connection is accepted and never read.
                guard number <= served else { return client.eventLoop.makeSucceededVoidFuture() }
                return ClientBootstrap(group: client.eventLoop)
                    .channelInitializer { server in server.eventLoop.makeCompletedFuture { try server.pipeline.syncOperations.addHandler(Forward(to: client)) } }
                    .connect(host: "127.0.0.1", port: upstreamPort)
                    .flatMap { server in client.pipeline.addHandler(Forward(to: server)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return StoppingRelay(channel: channel)
    }

    public func stop() async {
        try? await channel.close()
    }

    /// Writes what one side reads to the other, and closes the other when it closes.
    private final class Forward: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        private let partner: Channel

        init(to partner: Channel) { self.partner = partner }

        /// Reading starts once the channel is active, or at once if it already is when the
        /// handler comes: the client's side is not read by itself.
        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { context.read() }
        }

        func channelActive(context: ChannelHandlerContext) {
            context.read()
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            context.read()
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            context.fireChannelInactive()
        }
    }
}
