import DecafNIO
import DecafSession
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The weak-network proxy: listens, and for each client opens a connection to the upstream server,
/// passing bytes both ways through that direction's toxics. A client whose upstream cannot be
/// reached, or dies, is closed; the others are served on.
public final class ProxyServer: Sendable {
    /// Where the proxy listens.
    public let localAddress: SocketAddress
    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup
    private let counters: NIOLockedValueBox<ProxyCounts>

    private init(channel: Channel, group: MultiThreadedEventLoopGroup, counters: NIOLockedValueBox<ProxyCounts>) throws {
        guard let address = channel.localAddress else { throw ProxyServerError.cannotListen(reason: "no local address") }
        localAddress = address
        self.channel = channel
        self.group = group
        self.counters = counters
    }

    /// The counts so far.
    public var counts: ProxyCounts { counters.withLockedValue { $0 } }

    /// Starts a proxy on `host`:`port` (port 0: any free port) in front of `upstream`. Each
    /// connection's toxics draw from a generator seeded with `seed` and the connection's number.
    public static func start(host: String, port: Int, upstream: HostAndPort, toxics: ProxyToxics, seed: UInt64,
                             threads: Int = 1) async throws -> ProxyServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let counters = NIOLockedValueBox(ProxyCounts())
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.autoRead, value: false)
                .childChannelInitializer { client in
                    let number = counters.withLockedValue { counts in
                        counts.connections += 1
                        return counts.connections
                    }
                    ProxyConnection.open(client: client, upstream: upstream, toxics: toxics, seed: seed &+ UInt64(number), counters: counters)
                    return client.eventLoop.makeSucceededVoidFuture()
                }
                .bind(host: host, port: port)
                .get()
            return try ProxyServer(channel: channel, group: group, counters: counters)
        } catch {
            try? await group.shutdownGracefully()
            throw ProxyServerError.cannotListen(reason: ConnectionFailure.reason(error))
        }
    }

    /// Stops accepting and closes every connection.
    public func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}

/// Why the proxy could not start, in the user's words.
public enum ProxyServerError: Error, CustomStringConvertible {
    case cannotListen(reason: String)

    public var description: String {
        switch self {
        case let .cannotListen(reason): "cannot listen: \(reason)"
        }
    }
}
