import DecafNIO
import DecafSession
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// The weak-network proxy: listens, and for each client opens a connection to the upstream server,
/// passing bytes both ways through that direction's toxics. Toxics can change at any time (by a
/// timeline, or the control API): open connections take the change on their own event loops, so a
/// change never waits for traffic and traffic never waits for a change. A client whose upstream
/// cannot be reached, or dies, is closed; the others are served on.
public final class ProxyServer: Sendable {
    /// Where the proxy listens.
    public let localAddress: SocketAddress
    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup
    private let counters: NIOLockedValueBox<ProxyCounts>
    private let state: NIOLockedValueBox<State>

    /// What the proxy does now, and the connections it serves.
    struct State {
        var toxics: ProxyToxics
        /// Counts changes, so a connection never takes an older change after a newer one.
        var generation = 0
        var connections: [Int: NIOLoopBound<ProxyConnection>] = [:]
        /// Counts timelines played, so a replaced timeline stops.
        var timeline = 0
    }

    private init(channel: Channel, group: MultiThreadedEventLoopGroup, counters: NIOLockedValueBox<ProxyCounts>,
                 state: NIOLockedValueBox<State>) throws {
        guard let address = channel.localAddress else { throw ProxyServerError.cannotListen(reason: "no local address") }
        localAddress = address
        self.channel = channel
        self.group = group
        self.counters = counters
        self.state = state
    }

    /// The counts so far.
    public var counts: ProxyCounts { counters.withLockedValue { $0 } }

    /// Starts a proxy on `host`:`port` (port 0: any free port) in front of `upstream`. Each
    /// connection's toxics draw from a generator seeded with `seed` and the connection's number.
    public static func start(host: String, port: Int, upstream: HostAndPort, toxics: ProxyToxics, seed: UInt64,
                             threads: Int = 1) async throws -> ProxyServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let counters = NIOLockedValueBox(ProxyCounts())
        let state = NIOLockedValueBox(State(toxics: toxics))
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.autoRead, value: false)
                .childChannelInitializer { client in
                    accept(client, upstream: upstream, seed: seed, counters: counters, state: state)
                    return client.eventLoop.makeSucceededVoidFuture()
                }
                .bind(host: host, port: port)
                .get()
            return try ProxyServer(channel: channel, group: group, counters: counters, state: state)
        } catch {
            try? await group.shutdownGracefully()
            throw ProxyServerError.cannotListen(reason: ConnectionFailure.reason(error))
        }
    }

    private static func accept(_ client: Channel, upstream: HostAndPort, seed: UInt64, counters: NIOLockedValueBox<ProxyCounts>,
                               state: NIOLockedValueBox<State>) {
        let number = counters.withLockedValue { counts in
            counts.connections += 1
            return counts.connections
        }
        let admitted = state.withLockedValue { state -> (toxics: ProxyToxics, generation: Int)? in
            guard !state.toxics.isDown else { return nil }
            return (state.toxics, state.generation)
        }
        guard let admitted else {
            counters.withLockedValue { $0.refused += 1 }
            reset(client)
            return
        }
        let connection = ProxyConnection.open(client: client, upstream: upstream, toxics: admitted.toxics, generation: admitted.generation,
                                              seed: seed &+ UInt64(number), counters: counters) {
            _ = state.withLockedValue { $0.connections.removeValue(forKey: number) }
        }
        // A change made between reading the toxics and this registration reaches it too.
        let missed = state.withLockedValue { state -> (ProxyToxics, Int)? in
            state.connections[number] = connection
            return state.generation != admitted.generation ? (state.toxics, state.generation) : nil
        }
        if let (toxics, generation) = missed { connection.value.apply(toxics, generation: generation) }
    }

    /// Closes `channel` with a TCP reset.
    static func reset(_ channel: Channel) {
        let lingers = (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)) ?? channel.eventLoop.makeSucceededVoidFuture()
        lingers.whenComplete { _ in channel.close(promise: nil) }
    }

    /// Changes the toxics; open connections take the change at once, after a reset of every one of
    /// them when `resettingConnections`.
    public func changeToxics(resettingConnections: Bool = false, _ change: (inout ProxyToxics) -> Void) {
        let (toxics, generation, live) = state.withLockedValue { state in
            change(&state.toxics)
            state.generation += 1
            return (state.toxics, state.generation, Array(state.connections.values))
        }
        if resettingConnections { counters.withLockedValue { $0.cut += live.count } }
        for connection in live {
            connection.eventLoop.execute {
                if resettingConnections { connection.value.reset() }
                connection.value.apply(toxics, generation: generation)
            }
        }
    }

    /// Plays `timeline` from now, in place of any playing; `onPhase` hears each phase as it starts.
    public func play(_ timeline: ProxyTimeline, onPhase: @escaping @Sendable (ProxyTimeline.Phase) -> Void = { _ in }) {
        let number = state.withLockedValue { state in
            state.timeline += 1
            return state.timeline
        }
        enter(0, of: timeline, number: number, onPhase: onPhase)
    }

    private func enter(_ index: Int, of timeline: ProxyTimeline, number: Int, onPhase: @escaping @Sendable (ProxyTimeline.Phase) -> Void) {
        let phase = timeline.phases[index]
        guard state.withLockedValue({ $0.timeline == number }) else { return }
        changeToxics(resettingConnections: phase.resetsConnections) { $0 = phase.toxics }
        onPhase(phase)
        guard let duration = phase.duration else { return }
        let next = index + 1 < timeline.phases.count ? index + 1 : (timeline.repeats ? 0 : nil)
        guard let next else { return }
        group.next().scheduleTask(in: TimeAmount(duration)) { [self] in enter(next, of: timeline, number: number, onPhase: onPhase) }
    }

    /// Stops accepting and closes every connection.
    public func shutdown() async throws {
        state.withLockedValue { $0.timeline += 1 }
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
