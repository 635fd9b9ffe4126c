import DecafNIO
import DecafSession
import DecafWire
import NIOCore
import NIOPosix

/// `decaf send`: DATA frames on one or more connections, each a `ClientConnection` behaving as a
/// well-written mobile client (see `ClientSession`), with the ACK latency and the losses reported.
public enum SendClient {
    /// Sends `configuration.count` messages on each connection and reports what happened.
    /// `onConnectionProblem` hears why attempts to connect failed, while the clients keep trying.
    /// `wallClock` (UNIX seconds) times the messages `configuration.onMessage` hears of.
    public static func run(
        _ configuration: SendConfiguration, threads: Int = System.coreCount, clock: @escaping @Sendable () -> UInt32,
        wallClock: @escaping @Sendable () -> Double = { 0 },
        onConnectionProblem: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> SendReport {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let started = ContinuousClock.now
        let outcomes = (0..<configuration.connections).map { index -> EventLoopFuture<(ClientStatistics, [Duration])> in
            let loop = group.next()
            return loop.flatSubmit {
                SendFeeder.start(configuration, session: SessionID(rawValue: UInt16(truncatingIfNeeded: index + 1)), eventLoop: loop,
                                 clock: clock, wallClock: wallClock, onConnectionProblem: onConnectionProblem)
            }
        }
        let results = try await EventLoopFuture.whenAllSucceed(outcomes, on: group.next()).get()
        var report = SendReport()
        report.elapsed = ContinuousClock.now - started
        for (statistics, _) in results { report.add(statistics) }
        report.latency = LatencySummary(results.flatMap(\.1))
        try await group.shutdownGracefully()
        return report
    }
}

/// Feeds one connection its messages: a window ahead of what is settled, or at the configured
/// rate, then the end of the input; and gives up at the deadline.
final class SendFeeder {
    private let configuration: SendConfiguration
    private let session: SessionID
    private let wallClock: @Sendable () -> Double
    private let payload: [UInt8]
    /// Messages out but not settled, by id, while `onMessage` listens.
    private var unsettled: [Int: SentMessage] = [:]
    private var connection: ClientConnection?
    private var submitted = 0
    private var settled = 0
    private var latencies: [Duration] = []
    /// Set when the client has finished: nothing more is fed.
    private var done = false

    private init(configuration: SendConfiguration, session: SessionID, wallClock: @escaping @Sendable () -> Double) {
        self.configuration = configuration
        self.session = session
        self.wallClock = wallClock
        payload = TLVEncoder.encode(configuration.fields)
    }

    static func start(
        _ configuration: SendConfiguration, session: SessionID, eventLoop: EventLoop, clock: @escaping @Sendable () -> UInt32,
        wallClock: @escaping @Sendable () -> Double, onConnectionProblem: @escaping @Sendable (String) -> Void
    ) -> EventLoopFuture<(ClientStatistics, [Duration])> {
        let feeder = NIOLoopBound(SendFeeder(configuration: configuration, session: session, wallClock: wallClock), eventLoop: eventLoop)
        var client = configuration.client
        client.session = session
        let connection = ClientConnection(host: configuration.host, port: configuration.port, configuration: client, eventLoop: eventLoop,
                                          unixSeconds: clock, onEvent: { feeder.value.handle($0) }, onConnectionProblem: onConnectionProblem)
        feeder.value.connection = connection
        let deadline = eventLoop.scheduleTask(in: TimeAmount(configuration.deadline)) {
            connection.giveUp(reason: "the deadline of \(configuration.deadline) passed")
        }
        connection.start()
        if let rate = configuration.rate {
            let interval = TimeAmount.nanoseconds(max(1, 1_000_000_000 / Int64(rate)))
            eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: interval) { task in
                if feeder.value.done || !feeder.value.feed(upTo: 1) { task.cancel() }
            }
        } else {
            feeder.value.feed(upTo: configuration.client.window * 2)
        }
        return connection.finished.map { statistics in
            deadline.cancel()
            // Messages never handed to the client, because it stopped first, are lost too.
            var statistics = statistics
            statistics.failed += configuration.count - feeder.value.submitted
            feeder.value.done = true
            return (statistics, feeder.value.latencies)
        }
    }

    /// Submits up to `limit` more messages, keeping at most two windows ahead of the settled ones;
    /// false once every message is submitted.
    @discardableResult
    private func feed(upTo limit: Int) -> Bool {
        var fed = 0
        while !done, fed < limit, submitted < configuration.count, submitted - settled < configuration.client.window * 2 {
            connection?.submit(ClientMessage(id: submitted, payload: payload))
            submitted += 1
            fed += 1
        }
        guard submitted < configuration.count else {
            connection?.endOfInput()
            return false
        }
        return true
    }

    private func handle(_ event: ClientEvent) {
        switch event {
        case .handshake:
            configuration.onConnected?(session, wallClock())
        case let .sent(id, sequence, timestamp) where configuration.onMessage != nil:
            unsettled[id] = SentMessage(session: session, sequence: sequence, timestamp: timestamp, sent: wallClock(), sends: 1)
        case let .acknowledged(id, latency, retransmissions):
            latencies.append(latency)
            settled += 1
            if var message = unsettled.removeValue(forKey: id) {
                message.acknowledged = wallClock()
                message.sends = retransmissions + 1
                configuration.onMessage?(message)
            }
            if configuration.rate == nil { feed(upTo: 1) }
        case let .failed(id, _):
            settled += 1
            if let message = unsettled.removeValue(forKey: id) { configuration.onMessage?(message) }
            if configuration.rate == nil { feed(upTo: 1) }
        default:
            break
        }
    }
}
