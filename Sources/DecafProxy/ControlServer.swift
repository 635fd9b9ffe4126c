import DecafNIO
import NIOCore
import NIOHTTP1
import NIOPosix

/// The control API over HTTP/1.1 (`decaf proxy --control`): it reads each request whole, hands it
/// to `ProxyControl`, and writes the answer; nothing else.
public final class ControlServer: Sendable {
    /// Where the API listens.
    public let localAddress: SocketAddress
    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup

    private init(channel: Channel, group: MultiThreadedEventLoopGroup) throws {
        guard let address = channel.localAddress else { throw ProxyServerError.cannotListen(reason: "no local address") }
        localAddress = address
        self.channel = channel
        self.group = group
    }

    /// Serves `control` on `host`:`port` (port 0: any free port).
    public static func start(host: String, port: Int, control: ProxyControl) async throws -> ControlServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(ControlHTTPHandler(control: control))
                    }
                }
                .bind(host: host, port: port)
                .get()
            return try ControlServer(channel: channel, group: group)
        } catch {
            try? await group.shutdownGracefully()
            throw ProxyServerError.cannotListen(reason: ConnectionFailure.reason(error))
        }
    }

    /// Stops serving.
    public func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}
