import DecafNIO
import DecafSession
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
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
    /// Bytes still to be written to each side.
    private var pendingToClient = 0
    private var pendingToServer = 0
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
    /// With `pcap`, both legs are recorded as they are on the wire.
    static func open(client: Channel, upstream: HostAndPort, toxics: ProxyToxics, generation: Int, seed: UInt64, counters: NIOLockedValueBox<ProxyCounts>,
                     pcap: NIOWritePCAPHandler.SynchronizedFileSink?, onEnd: @escaping @Sendable () -> Void) -> NIOLoopBound<ProxyConnection> {
        let connection = ProxyConnection(client: client, toxics: toxics, generation: generation, seed: seed, counters: counters, onEnd: onEnd)
        let loop = client.eventLoop
        let bound = NIOLoopBound(connection, eventLoop: loop)
        @Sendable func recorded(_ mode: NIOWritePCAPHandler.Mode) -> [ChannelHandler] { pcap.map { [NIOWritePCAPHandler(mode: mode, fileSink: $0.write)] } ?? [] }
        try? client.pipeline.syncOperations.addHandlers(recorded(.server) + [ProxyLegHandler(connection: bound, side: .client)])
        ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.autoRead, value: false)
            .connectTimeout(.seconds(10))
            .channelInitializer { server in
                server.eventLoop.makeCompletedFuture {
                    try server.pipeline.syncOperations.addHandlers(recorded(.client) + [ProxyLegHandler(connection: bound, side: .server)])
                }
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
        let pipe = Self.pipe(from: side)
        let before = self[keyPath: pipe].frames
        let passages = self[keyPath: pipe].received(bytes, at: now)
        let frames = self[keyPath: pipe].frames.since(before)
        let direction = Self.counts(from: side)
        // Counted as they happen, so a proxy stopped at any moment reports everything so far.
        counters.withLockedValue { counts in
            counts[keyPath: direction].bytesIn += bytes.count
            counts[keyPath: direction].frames.add(frames)
        }
        perform(passages, to: side.other)
    }

    func readComplete(from side: ProxySide) {
        if self[keyPath: Self.pending(to: side.other)] < Self.pendingLimit { channel(side)?.read() }
    }

    func closed(_ side: ProxySide) {
        guard !ended else { return }
        perform(self[keyPath: Self.pipe(from: side)].ended(at: now), to: side.other)
    }

    private func channel(_ side: ProxySide) -> Channel? { side == .client ? client : server }

    /// The pipe of what `side` sends: upstream from the client, downstream from the server.
    private static func pipe(from side: ProxySide) -> ReferenceWritableKeyPath<ProxyConnection, ToxicPipe> {
        side == .client ? \.upstream : \.downstream
    }

    /// The counts of what `side` sends.
    private static func counts(from side: ProxySide) -> WritableKeyPath<ProxyCounts, ProxyCounts.Direction> {
        side == .client ? \.upstream : \.downstream
    }

    /// The bytes waiting to be written to `side`.
    private static func pending(to side: ProxySide) -> ReferenceWritableKeyPath<ProxyConnection, Int> {
        side == .client ? \.pendingToClient : \.pendingToServer
    }

    private func perform(_ passages: [ToxicPipe.Passage], to side: ProxySide) {
        for passage in passages {
            let deadline = started + TimeAmount(passage.at)
            if case let .bytes(bytes, _) = passage { self[keyPath: Self.pending(to: side)] += bytes.count }
            client.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in carry(passage, to: side) }
        }
    }

    private func carry(_ passage: ToxicPipe.Passage, to side: ProxySide) {
        guard !ended, let channel = channel(side) else { return }
        switch passage {
        case let .bytes(bytes, _):
            self[keyPath: Self.pending(to: side)] -= bytes.count
            counters.withLockedValue { counts in
                counts[keyPath: Self.counts(from: side.other)].bytesOut += bytes.count
            }
            channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
            let sender: ProxySide = side.other
            if self[keyPath: Self.pending(to: side)] < Self.pendingLimit { self.channel(sender)?.read() }
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
