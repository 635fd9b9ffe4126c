import DecafNIO
import DecafSession
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// One proxied connection on its event loop: the client's channel, the upstream channel, and a
/// `ToxicPipe` per direction. It only moves bytes and timers; the pipes decide what and when.
final class ProxyConnection {
    private let client: Channel
    private var server: Channel?
    private var upstream: ToxicPipe
    private var downstream: ToxicPipe
    private let counters: NIOLockedValueBox<ProxyCounts>
    private let started = NIODeadline.now()
    private var ended = false
    /// The change of toxics in force: an older one arriving late is ignored.
    private var generation: Int
    private let onEnd: @Sendable () -> Void
    /// Bytes each side still has to be written, and whether its sender was paused for them.
    private var pending: [ProxySide: Int] = [.client: 0, .server: 0]
    /// Above this many bytes waiting, the sending side is no longer read.
    private static let pendingLimit = 4 << 20

    private init(client: Channel, toxics: ProxyToxics, generation: Int, seed: UInt64, counters: NIOLockedValueBox<ProxyCounts>,
                 onEnd: @escaping @Sendable () -> Void) {
        self.client = client
        upstream = ToxicPipe(applying: toxics.on(.upstream), seed: seed)
        downstream = ToxicPipe(applying: toxics.on(.downstream), seed: ~seed)
        self.generation = generation
        self.counters = counters
        self.onEnd = onEnd
    }

    /// Connects `client` to `upstream` and starts passing bytes; closes the client if the
    /// upstream cannot be reached. `onEnd` hears when both are closed.
    static func open(client: Channel, upstream: HostAndPort, toxics: ProxyToxics, generation: Int, seed: UInt64, counters: NIOLockedValueBox<ProxyCounts>,
                     onEnd: @escaping @Sendable () -> Void) -> NIOLoopBound<ProxyConnection> {
        let connection = ProxyConnection(client: client, toxics: toxics, generation: generation, seed: seed, counters: counters, onEnd: onEnd)
        let loop = client.eventLoop
        let bound = NIOLoopBound(connection, eventLoop: loop)
        try? client.pipeline.syncOperations.addHandler(ProxyLegHandler(connection: bound, side: .client))
        ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.autoRead, value: false)
            .connectTimeout(.seconds(10))
            .channelInitializer { server in
                server.eventLoop.makeCompletedFuture { try server.pipeline.syncOperations.addHandler(ProxyLegHandler(connection: bound, side: .server)) }
            }
            .connect(host: upstream.host, port: upstream.port)
            .whenComplete { result in
                switch result {
                case let .success(server): bound.value.connected(server)
                case .failure:
                    counters.withLockedValue { $0.upstreamFailures += 1 }
                    bound.value.end()
                }
            }
        client.closeFuture.whenComplete { _ in bound.value.end() }
        return bound
    }

    /// Takes the toxics of change `generation`, unless a later change came first.
    func apply(_ toxics: ProxyToxics, generation: Int) {
        guard generation > self.generation, !ended else { return }
        self.generation = generation
        perform(upstream.replace(with: toxics.on(.upstream), at: now), to: .server)
        perform(downstream.replace(with: toxics.on(.downstream), at: now), to: .client)
    }

    /// Resets both sides at once, as a network change does to every connection through it.
    func reset() {
        guard !ended else { return }
        ProxyServer.reset(client)
        if let server { ProxyServer.reset(server) }
        end()
    }

    private var now: Duration { .nanoseconds((NIODeadline.now() - started).nanoseconds) }

    private func connected(_ server: Channel) {
        guard !ended, client.isActive else {
            server.close(promise: nil)
            return end()
        }
        self.server = server
        perform(upstream.opened(at: now), to: .server)
        perform(downstream.opened(at: now), to: .client)
        client.read()
        server.read()
    }

    func read(_ buffer: ByteBuffer, from side: ProxySide) {
        let bytes = Array(buffer.readableBytesView)
        let passages: [ToxicPipe.Passage]
        // Counted as they happen, so a proxy stopped at any moment reports everything so far.
        switch side {
        case .client:
            let before = upstream.frames
            passages = upstream.received(bytes, at: now)
            counters.withLockedValue { counts in
                counts.upstream.bytesIn += bytes.count
                counts.upstream.frames.add(upstream.frames.since(before))
            }
        case .server:
            let before = downstream.frames
            passages = downstream.received(bytes, at: now)
            counters.withLockedValue { counts in
                counts.downstream.bytesIn += bytes.count
                counts.downstream.frames.add(downstream.frames.since(before))
            }
        }
        perform(passages, to: side.other)
    }

    func readComplete(from side: ProxySide) {
        let receiving: ProxySide = side.other
        if pending[receiving, default: 0] < Self.pendingLimit { channel(side)?.read() }
    }

    func closed(_ side: ProxySide) {
        guard !ended else { return }
        let passages = side == .client ? upstream.ended(at: now) : downstream.ended(at: now)
        perform(passages, to: side.other)
    }

    private func channel(_ side: ProxySide) -> Channel? { side == .client ? client : server }

    private func perform(_ passages: [ToxicPipe.Passage], to side: ProxySide) {
        for passage in passages {
            let deadline = started + TimeAmount(passage.at)
            if case let .bytes(bytes, _) = passage { pending[side, default: 0] += bytes.count }
            client.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in carry(passage, to: side) }
        }
    }

    private func carry(_ passage: ToxicPipe.Passage, to side: ProxySide) {
        guard !ended, let channel = channel(side) else { return }
        switch passage {
        case let .bytes(bytes, _):
            pending[side, default: 0] -= bytes.count
            counters.withLockedValue { counts in
                if side == .server { counts.upstream.bytesOut += bytes.count } else { counts.downstream.bytesOut += bytes.count }
            }
            channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
            let sender: ProxySide = side.other
            if pending[side, default: 0] < Self.pendingLimit { self.channel(sender)?.read() }
        case .close:
            if channel.isActive && self.channel(side.other)?.isActive == true {
                counters.withLockedValue { $0.cut += 1 }
            }
            end()
        case .reset:
            counters.withLockedValue { $0.cut += 1 }
            ProxyServer.reset(channel)
            end()
        }
    }

    private func end() {
        guard !ended else { return }
        ended = true
        client.close(promise: nil)
        server?.close(promise: nil)
        onEnd()
    }
}
