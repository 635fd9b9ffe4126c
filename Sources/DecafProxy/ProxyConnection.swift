import DecafNIO
import DecafSession
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix

/// One proxied connection on its event loop: the client's channel, the upstream channel, and a
/// `ToxicPipe` per direction. It only moves bytes and timers; the pipes decide what and when.
///
/// Nothing is lost that a toxic did not take: what a side sent before its FIN (or before it went
/// away) is written to the other side, and only then is the other side's output shut (a
/// half-close, so the other direction goes on); a toxic's cut closes after what was let through
/// before it has been written. The connection ends when both directions have ended.
final class ProxyConnection {
    /// What the connection knows of one side and of what goes to it.
    private struct Side {
        var channel: Channel?
        /// Passages for this side not carried yet, in the order (and so the time) they go.
        var queue = CircularBuffer<ToxicPipe.Passage>()
        /// The timer that carries the queue's first passage when its time comes.
        var timer: Scheduled<Void>?
        /// Bytes for this side queued, or written and not yet taken by its socket.
        var pending = 0
        /// The side's own stream ended: its FIN came, or it went away.
        var inputEnded = false
        /// The other side's stream ended: this side's output is shut once its writes are done.
        var ending = false
        /// A toxic cut the connection: it closes once this side's writes are done.
        var closing = false
        /// This side's output was shut after its last byte.
        var outputEnded = false
        /// The side's channel closed: nothing more can be written to it.
        var gone = false
        /// Bytes were written to it that wait for a flush at the end of the read.
        var unflushed = false
        /// The side is read as its bytes come (autoRead on); off while the other side has too much
        /// waiting, so a slow receiver holds the sender back.
        var reading = false

        /// Nothing more will be written to this side.
        var done: Bool { outputEnded || gone }
    }

    private var client: Side
    private var server = Side()
    private var upstream: ToxicPipe
    private var downstream: ToxicPipe
    private let counters: NIOLockedValueBox<ProxyCounts>
    private let started = NIODeadline.now()
    private var ended = false
    /// The change of toxics in force: an older one arriving late is ignored.
    private var generation: Int
    private let onEnd: @Sendable () -> Void
    /// Reads grow up to 1 MiB while the socket fills them (NIO stops at 64 KiB by default), so a bulk
    /// transfer costs a few system calls per megabyte, and shrink again for small messages.
    static let readSizes = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 1 << 20)
    /// Above this many bytes waiting for a side, the sending side is no longer read.
    private static let pendingLimit = 4 << 20

    private init(client: Channel, toxics: ProxyToxics, generation: Int, seed: UInt64, counters: NIOLockedValueBox<ProxyCounts>,
                 onEnd: @escaping @Sendable () -> Void) {
        self.client = Side(channel: client)
        upstream = ToxicPipe(applying: toxics.on(.upstream), seed: seed)
        downstream = ToxicPipe(applying: toxics.on(.downstream), seed: ~seed)
        self.generation = generation
        self.counters = counters
        self.onEnd = onEnd
    }

    /// Connects `client` to `upstream` and starts passing bytes; closes the client if the
    /// upstream cannot be reached, and tells `onUpstreamFailure` why. `onEnd` hears when both are
    /// closed. With `record`, both legs are recorded as they are on the wire, a pcap record at a
    /// time (to a file, a live monitor, or both).
    static func open(client: Channel, upstream: HostAndPort, toxics: ProxyToxics, generation: Int, seed: UInt64, counters: NIOLockedValueBox<ProxyCounts>,
                     record: (@Sendable (ByteBuffer) -> Void)?, onUpstreamFailure: @escaping @Sendable (String) -> Void,
                     onEnd: @escaping @Sendable () -> Void) -> NIOLoopBound<ProxyConnection> {
        let connection = ProxyConnection(client: client, toxics: toxics, generation: generation, seed: seed, counters: counters, onEnd: onEnd)
        let loop = client.eventLoop
        let bound = NIOLoopBound(connection, eventLoop: loop)
        @Sendable func recorded(_ mode: NIOWritePCAPHandler.Mode) -> [ChannelHandler] { record.map { [NIOWritePCAPHandler(mode: mode, fileSink: $0)] } ?? [] }
        try? client.pipeline.syncOperations.addHandlers(recorded(.server) + [ProxyLegHandler(connection: bound, side: .client)])
        ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.autoRead, value: false)
            .channelOption(.recvAllocator, value: readSizes)
            .channelOption(.allowRemoteHalfClosure, value: true)
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
                case let .failure(error):
                    counters.withLockedValue { $0.upstreamFailures += 1 }
                    onUpstreamFailure("cannot reach the upstream \(upstream): \(ConnectionFailure.reason(error))")
                    bound.value.end()
                }
            }
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
        for channel in [client.channel, server.channel].compactMap(\.self) { ProxyServer.reset(channel) }
        end()
    }

    private var now: Duration { .nanoseconds((NIODeadline.now() - started).nanoseconds) }

    private func connected(_ channel: Channel) {
        guard !ended, !client.gone else {
            channel.close(promise: nil)
            return end()
        }
        server.channel = channel
        perform(upstream.opened(at: now), to: .server)
        perform(downstream.opened(at: now), to: .client)
        deliver(to: .server)
        readIfRoom(from: .client)
        readIfRoom(from: .server)
    }

    func read(_ buffer: ByteBuffer, from side: ProxySide) {
        if passThrough(buffer, from: side) { return }
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
        readIfRoom(from: side)
    }

    func readComplete(from side: ProxySide) {
        let receiver = Self.side(side.other)
        if self[keyPath: receiver].unflushed {
            self[keyPath: receiver].unflushed = false
            self[keyPath: receiver].channel?.flush()
        }
        readIfRoom(from: side)
    }

    /// With no toxic in the way and nothing queued before it, `buffer` goes to the other side as
    /// it came, without a copy, flushed once the read is complete; the same bytes, order and
    /// accounting as through the pipe. False when it has to go through the pipe.
    private func passThrough(_ buffer: ByteBuffer, from side: ProxySide) -> Bool {
        let receiver = Self.side(side.other)
        guard !ended, self[keyPath: Self.pipe(from: side)].passesThrough, self[keyPath: receiver].queue.isEmpty, self[keyPath: receiver].timer == nil,
              !self[keyPath: receiver].gone, let channel = self[keyPath: receiver].channel else { return false }
        let count = buffer.readableBytes
        counters.withLockedValue { $0[keyPath: Self.counts(from: side)].bytesIn += count }
        self[keyPath: receiver].pending += count
        self[keyPath: receiver].unflushed = true
        let to = side.other
        channel.write(buffer).assumeIsolated().whenComplete { [self] result in written(count, to: to, result) }
        readIfRoom(from: side)
        return true
    }

    /// `side` ended its stream (its FIN came): the other side gets everything before it, then its
    /// own FIN; what goes to `side` goes on.
    func inputEnded(_ side: ProxySide) {
        let key = Self.side(side)
        guard !ended, !self[keyPath: key].inputEnded else { return }
        self[keyPath: key].inputEnded = true
        perform(self[keyPath: Self.pipe(from: side)].ended(at: now), to: side.other)
    }

    /// `side`'s channel closed: what it sent still reaches the other side, then the connection ends.
    func closed(_ side: ProxySide) {
        let key = Self.side(side)
        guard !ended, !self[keyPath: key].gone else { return }
        self[keyPath: key].gone = true
        self[keyPath: key].timer?.cancel()
        self[keyPath: key].timer = nil
        self[keyPath: key].queue.removeAll()
        self[keyPath: key].pending = 0
        guard server.channel != nil else { return end() }
        inputEnded(side)
        endIfDone()
    }

    /// Reads from `side` while what it sends can still be taken, and stops reading it while the
    /// other side has more than `pendingLimit` bytes waiting. Reading is left on between reads
    /// (autoRead), so a busy connection costs no system call per read to ask for the next.
    private func readIfRoom(from side: ProxySide) {
        let key = Self.side(side)
        let sender = self[keyPath: key]
        guard !ended, !sender.inputEnded, !sender.gone, let channel = sender.channel else { return }
        let room = self[keyPath: Self.side(side.other)].pending < Self.pendingLimit
        guard room != sender.reading else { return }
        self[keyPath: key].reading = room
        if let options = channel.syncOptions {
            try? options.setOption(.autoRead, value: room)
        } else {
            channel.setOption(.autoRead, value: room).whenFailure { _ in channel.close(promise: nil) }
        }
    }

    private static func side(_ side: ProxySide) -> ReferenceWritableKeyPath<ProxyConnection, Side> {
        side == .client ? \.client : \.server
    }

    /// The pipe of what `side` sends: upstream from the client, downstream from the server.
    private static func pipe(from side: ProxySide) -> ReferenceWritableKeyPath<ProxyConnection, ToxicPipe> {
        side == .client ? \.upstream : \.downstream
    }

    /// The counts of what `side` sends.
    private static func counts(from side: ProxySide) -> WritableKeyPath<ProxyCounts, ProxyCounts.Direction> {
        side == .client ? \.upstream : \.downstream
    }

    /// Queues `passages` for `side` and carries what is due.
    private func perform(_ passages: [ToxicPipe.Passage], to side: ProxySide) {
        let key = Self.side(side)
        guard !ended, !self[keyPath: key].gone, !passages.isEmpty else { return }
        for passage in passages {
            if case let .bytes(bytes, _) = passage { self[keyPath: key].pending += bytes.count }
            self[keyPath: key].queue.append(passage)
        }
        if self[keyPath: key].timer == nil { deliver(to: side) }
    }

    /// Carries every passage for `side` whose time has come, in order, with one flush; a timer
    /// takes the rest when the first of them is due.
    private func deliver(to side: ProxySide) {
        let key = Self.side(side)
        self[keyPath: key].timer = nil
        // What comes before the upstream is connected waits for it.
        guard self[keyPath: key].channel != nil else { return }
        let due = now
        var wrote = false
        while !ended, let first = self[keyPath: key].queue.first, first.at <= due {
            self[keyPath: key].queue.removeFirst()
            wrote = carry(first, to: side) || wrote
        }
        if wrote || self[keyPath: key].unflushed {
            self[keyPath: key].unflushed = false
            self[keyPath: key].channel?.flush()
        }
        guard !ended, let next = self[keyPath: key].queue.first, let loop = self[keyPath: key].channel?.eventLoop else { return }
        self[keyPath: key].timer = loop.assumeIsolated().scheduleTask(deadline: started + TimeAmount(next.at)) { [self] in deliver(to: side) }
    }

    /// Carries `passage` to `side`; true when it wrote bytes that still need a flush.
    private func carry(_ passage: ToxicPipe.Passage, to side: ProxySide) -> Bool {
        guard let channel = self[keyPath: Self.side(side)].channel else { return false }
        let key = Self.side(side)
        switch passage {
        case let .bytes(bytes, _):
            let count = bytes.count
            channel.write(ByteBuffer(bytes: bytes)).assumeIsolated().whenComplete { [self] result in written(count, to: side, result) }
            return true
        case .end:
            self[keyPath: key].ending = true
            finishOutput(of: side)
        case .close:
            if !client.gone && !server.gone { counters.withLockedValue { $0.cut += 1 } }
            self[keyPath: key].closing = true
            finishOutput(of: side)
        case .reset:
            // Both sides get the RST, as toxiproxy's reset_peer sets no linger on both.
            counters.withLockedValue { $0.cut += 1 }
            reset()
        }
        return false
    }

    /// `count` bytes for `side` were taken by its socket, or refused.
    private func written(_ count: Int, to side: ProxySide, _ result: Result<Void, Error>) {
        let key = Self.side(side)
        guard !self[keyPath: key].gone else { return }
        self[keyPath: key].pending -= count
        if case .success = result {
            counters.withLockedValue { counts in counts[keyPath: Self.counts(from: side.other)].bytesOut += count }
        }
        readIfRoom(from: side.other)
        finishOutput(of: side)
    }

    /// Once every byte for `side` is written: closes the connection after a toxic's cut, or
    /// shuts `side`'s output after the end of the other side's stream.
    private func finishOutput(of side: ProxySide) {
        let key = Self.side(side)
        let state = self[keyPath: key]
        guard !ended, state.pending == 0, !state.done else { return }
        if state.closing { return end() }
        guard state.ending else { return }
        self[keyPath: key].outputEnded = true
        state.channel?.close(mode: .output, promise: nil)
        endIfDone()
    }

    /// Ends the connection once nothing more can go either way.
    private func endIfDone() {
        if client.done && server.done { end() }
    }

    private func end() {
        guard !ended else { return }
        ended = true
        for key in [Self.side(.client), Self.side(.server)] {
            self[keyPath: key].timer?.cancel()
            self[keyPath: key].channel?.close(promise: nil)
        }
        onEnd()
    }
}

