import DecafNIO
import DecafSession
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
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
    /// The server it forwards to.
    public let upstream: HostAndPort
    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup
    private let counters: NIOLockedValueBox<ProxyCounts>
    private let state: NIOLockedValueBox<State>
    private let pcap: NIOWritePCAPHandler.SynchronizedFileSink?

    /// What the proxy does now, and the connections it serves.
    struct State {
        var toxics: ProxyToxics
        /// A disabled proxy resets every connection, as toxiproxy's `enabled: false` refuses them.
        var enabled = true
        /// Counts changes, so a connection never takes an older change after a newer one.
        var generation = 0
        var connections: [Int: NIOLoopBound<ProxyConnection>] = [:]
        /// Connections open, and whether accepting is paused at the descriptor budget.
        var open = 0
        var acceptingPaused = false
        /// The budget was said, or the system refused a descriptor: said once.
        var limitSaid = false
        /// Counts timelines played, so a replaced timeline stops.
        var timeline = 0
        var stopped = false
    }

    private init(channel: Channel, group: MultiThreadedEventLoopGroup, upstream: HostAndPort, counters: NIOLockedValueBox<ProxyCounts>,
                 state: NIOLockedValueBox<State>, pcap: NIOWritePCAPHandler.SynchronizedFileSink?) throws {
        guard let address = channel.localAddress else { throw ProxyServerError.cannotListen(reason: "no local address") }
        localAddress = address
        self.upstream = upstream
        self.channel = channel
        self.group = group
        self.counters = counters
        self.state = state
        self.pcap = pcap
    }

    /// The counts so far.
    public var counts: ProxyCounts { counters.withLockedValue { $0 } }

    /// The toxics in force now.
    public var toxics: ProxyToxics { state.withLockedValue { $0.toxics } }

    /// Whether the proxy lets connections through (see `setEnabled`).
    public var isEnabled: Bool { state.withLockedValue { $0.enabled } }

    /// Starts a proxy on `host`:`port` (port 0: any free port) in front of `upstream`. Each
    /// connection's toxics draw from a generator seeded with `seed` and the connection's number.
    /// With `pcapPath`, both legs of every connection (client to proxy, proxy to upstream) are
    /// recorded there; with `monitor`, they are judged as they pass. `onUpstreamFailure` hears, in the user's words, why the upstream could not
    /// be reached for a connection, as it happens; `onLimit` hears, once, that the proxy carries
    /// as many connections as its file descriptors allow (`DescriptorBudget`) and stops accepting
    /// until one closes, or that the system refused it a descriptor and accepting backs off.
    public static func start(host: String, port: Int, upstream: HostAndPort, toxics: ProxyToxics, seed: UInt64,
                             pcapPath: String? = nil, monitor: LiveMonitor? = nil, threads: Int = 1,
                             onUpstreamFailure: @escaping @Sendable (String) -> Void = { _ in },
                             onLimit: @escaping @Sendable (String) -> Void = { _ in }) async throws -> ProxyServer {
        let pcap: NIOWritePCAPHandler.SynchronizedFileSink?
        do { pcap = try pcapPath.map { path throws(PcapFile.Problem) in try PcapFile.open(path: path) { _ in } } } catch {
            throw ProxyServerError.cannotRecord(error)
        }
        // Each pcap record goes to the file, the monitor, or both.
        let record: (@Sendable (ByteBuffer) -> Void)? = switch (pcap, monitor) {
        case (nil, nil): nil
        case let (pcap?, nil): pcap.write
        case let (nil, monitor?): monitor.record
        case let (pcap?, monitor?): { pcap.write(buffer: $0); monitor.record($0) }
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let counters = NIOLockedValueBox(ProxyCounts())
        let state = NIOLockedValueBox(State(toxics: toxics))
        let budget = DescriptorBudget.current
        let sayLimit: @Sendable (String) -> Void = { message in
            if state.withLockedValue({ state in defer { state.limitSaid = true }; return !state.limitSaid }) { onLimit(message) }
        }
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // Clients beyond the budget wait here, not in this process.
                .serverChannelOption(.backlog, value: 4096)
                .serverChannelInitializer { server in
                    // A descriptor refused anyway (another process took them): wait a moment, never spin.
                    server.eventLoop.makeCompletedFuture {
                        try server.pipeline.syncOperations.addHandler(AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { error in
                            guard [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else { return nil }
                            sayLimit("decaf proxy: the system refused a file descriptor for a new client (\(String(cString: strerror(error.errnoCode)))); "
                                + "accepting waits a quarter of a second at a time, clients wait in the listen queue. Raise the limit (ulimit -n 65536) before starting the proxy")
                            return .milliseconds(250)
                        })
                    }
                }
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.autoRead, value: false)
                .childChannelOption(.recvAllocator, value: ProxyConnection.readSizes)
                // A client's FIN ends only what it sends: the upstream gets it after the last byte.
                .childChannelOption(.allowRemoteHalfClosure, value: true)
                .childChannelInitializer { client in
                    let release = admit(client, budget: budget, state: state, sayLimit: sayLimit)
                    accept(client, upstream: upstream, seed: seed, counters: counters, state: state, record: record, onUpstreamFailure: onUpstreamFailure, onEnd: release)
                    return client.eventLoop.makeSucceededVoidFuture()
                }
                .bind(host: host, port: port)
                .get()
            return try ProxyServer(channel: channel, group: group, upstream: upstream, counters: counters, state: state, pcap: pcap)
        } catch {
            try? await group.shutdownGracefully()
            try? await pcap?.close()
            throw ProxyServerError.cannotListen(reason: ConnectionFailure.reason(error))
        }
    }

    /// Serves `client`, or resets it when the proxy is disabled or down; `onEnd` hears when its
    /// connection (both legs) has closed.
    private static func accept(_ client: Channel, upstream: HostAndPort, seed: UInt64, counters: NIOLockedValueBox<ProxyCounts>,
                               state: NIOLockedValueBox<State>, record: (@Sendable (ByteBuffer) -> Void)?,
                               onUpstreamFailure: @escaping @Sendable (String) -> Void, onEnd: @escaping @Sendable () -> Void) {
        let number = counters.withLockedValue { counts in
            counts.connections += 1
            return counts.connections
        }
        let admitted = state.withLockedValue { state -> (toxics: ProxyToxics, generation: Int)? in
            guard state.enabled, !state.toxics.isDown else { return nil }
            return (state.toxics, state.generation)
        }
        guard let admitted else {
            counters.withLockedValue { $0.refused += 1 }
            client.closeFuture.whenComplete { _ in onEnd() }
            reset(client)
            return
        }
        let connection = ProxyConnection.open(client: client, upstream: upstream, toxics: admitted.toxics, generation: admitted.generation,
                                              seed: seed &+ UInt64(number), counters: counters, record: record, onUpstreamFailure: onUpstreamFailure) {
            _ = state.withLockedValue { $0.connections.removeValue(forKey: number) }
            onEnd()
        }
        // A change made between reading the toxics and this registration reaches it too.
        let missed = state.withLockedValue { state -> (ProxyToxics, Int)? in
            state.connections[number] = connection
            return state.generation != admitted.generation ? (state.toxics, state.generation) : nil
        }
        if let (toxics, generation) = missed { connection.value.apply(toxics, generation: generation) }
    }

    /// Counts `client` against the descriptor budget until the returned release is called (its
    /// connection has closed): at the budget the listener stops accepting, and accepts again once
    /// a connection has closed.
    private static func admit(_ client: Channel, budget: DescriptorBudget, state: NIOLockedValueBox<State>,
                              sayLimit: @escaping @Sendable (String) -> Void) -> @Sendable () -> Void {
        guard let listener = client.parent else { return {} }
        let full = state.withLockedValue { state in
            state.open += 1
            guard state.open >= budget.connections, !state.acceptingPaused else { return false }
            state.acceptingPaused = true
            return true
        }
        if full {
            sayLimit(budget.reached)
            listener.setOption(.autoRead, value: false).whenComplete { _ in }
        }
        return {
            let resume = state.withLockedValue { state in
                state.open -= 1
                guard state.acceptingPaused, state.open < budget.connections else { return false }
                state.acceptingPaused = false
                return true
            }
            if resume {
                listener.setOption(.autoRead, value: true).whenComplete { _ in listener.read() }
            }
        }
    }

    /// Closes `channel` with a TCP reset.
    static func reset(_ channel: Channel) {
        let lingers = (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)) ?? channel.eventLoop.makeSucceededVoidFuture()
        lingers.whenComplete { _ in channel.close(promise: nil) }
    }

    /// Changes the toxics, in place of any timeline playing; open connections take the change at
    /// once, after a reset of every one of them when `resettingConnections`. The future completes
    /// when every open connection has taken it: on its event loop's next turn, never later traffic.
    @discardableResult
    public func changeToxics(resettingConnections: Bool = false, _ change: (inout ProxyToxics) -> Void) -> EventLoopFuture<Void> {
        state.withLockedValue { $0.timeline += 1 }
        return apply(resettingConnections: resettingConnections, change)
    }

    /// Lets connections through, or, disabled, resets every open one and every new one until enabled
    /// again (toxiproxy closes its listener instead; a reset at once looks the same to a client).
    /// The future completes when every open connection has been reset.
    @discardableResult
    public func setEnabled(_ enabled: Bool) -> EventLoopFuture<Void> {
        let live = state.withLockedValue { state in
            state.enabled = enabled
            return enabled ? [] : Array(state.connections.values)
        }
        counters.withLockedValue { $0.cut += live.count }
        return onEach(live) { $0.reset() }
    }

    /// Runs `work` on each of `connections` on its event loop; completes when all have.
    private func onEach(_ connections: [NIOLoopBound<ProxyConnection>], _ work: @escaping @Sendable (ProxyConnection) -> Void) -> EventLoopFuture<Void> {
        let done = connections.map { connection in connection.eventLoop.submit { work(connection.value) } }
        return EventLoopFuture.andAllComplete(done, on: group.next())
    }

    @discardableResult
    private func apply(resettingConnections: Bool, _ change: (inout ProxyToxics) -> Void) -> EventLoopFuture<Void> {
        let (toxics, generation, live) = state.withLockedValue { state in
            change(&state.toxics)
            state.generation += 1
            return (state.toxics, state.generation, Array(state.connections.values))
        }
        if resettingConnections { counters.withLockedValue { $0.cut += live.count } }
        return onEach(live) { connection in
            if resettingConnections { connection.reset() }
            connection.apply(toxics, generation: generation)
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
        apply(resettingConnections: phase.resetsConnections) { $0 = phase.toxics }
        onPhase(phase)
        guard let duration = phase.duration else { return }
        let next = index + 1 < timeline.phases.count ? index + 1 : (timeline.repeats ? 0 : nil)
        guard let next else { return }
        group.next().scheduleTask(in: TimeAmount(duration)) { [self] in enter(next, of: timeline, number: number, onPhase: onPhase) }
    }

    /// Stops accepting, closes every connection, and finishes the pcap file.
    /// Calling it again does nothing.
    public func shutdown() async throws {
        let first = state.withLockedValue { state in
            defer { state.stopped = true }
            state.timeline += 1
            return !state.stopped
        }
        guard first else { return }
        try? await channel.close()
        try await group.shutdownGracefully()
        try await pcap?.close()
    }
}

/// Why the proxy could not start, in the user's words.
public enum ProxyServerError: Error, CustomStringConvertible {
    case cannotListen(reason: String)
    case cannotRecord(PcapFile.Problem)

    public var description: String {
        switch self {
        case let .cannotListen(reason): "cannot listen: \(reason)"
        case let .cannotRecord(problem): problem.description
        }
    }
}
