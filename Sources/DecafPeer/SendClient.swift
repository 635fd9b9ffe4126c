import DecafNIO
import DecafSession
import DecafWire
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// `decaf send`: DATA frames on one or more connections, each a `ClientConnection` behaving as a
/// well-written mobile client (see `ClientSession`), with the ACK latency and the losses reported.
public enum SendClient {
    /// Sends `configuration.count` messages on each connection and reports what happened.
    /// `onConnectionProblem` hears, in the user's words, why attempts to connect or to handshake
    /// failed (refused, reset, an answer that is not Decaf, no answer), while the clients keep
    /// trying. `wallClock` (UNIX seconds) times the messages `configuration.onMessage` hears of.
    /// Cancelling the task gives up what is not settled and reports what was, `interrupted`.
    public static func run(
        _ configuration: SendConfiguration, threads: Int = System.coreCount, clock: @escaping @Sendable () -> UInt32,
        wallClock: @escaping @Sendable () -> Double = { 0 },
        onConnectionProblem: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> SendReport {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let started = ContinuousClock.now
        let feeders = NIOLockedValueBox<[NIOLoopBound<SendFeeder>]>([])
        let outcomes = (0..<configuration.connections).map { index -> EventLoopFuture<(ClientStatistics, [Duration], String?)> in
            let loop = group.next()
            return loop.flatSubmit {
                SendFeeder.start(configuration, session: SessionID(rawValue: UInt16(truncatingIfNeeded: index + 1)), eventLoop: loop,
                                 clock: clock, wallClock: wallClock, onConnectionProblem: onConnectionProblem) { feeder in
                    feeders.withLockedValue { $0.append(feeder) }
                }
            }
        }
        let results = try await withTaskCancellationHandler {
            try await EventLoopFuture.whenAllSucceed(outcomes, on: group.next()).get()
        } onCancel: {
            for feeder in feeders.withLockedValue({ $0 }) {
                feeder.eventLoop.execute { feeder.value.giveUp(reason: "interrupted") }
            }
        }
        var report = SendReport()
        report.interrupted = Task.isCancelled
        report.elapsed = ContinuousClock.now - started
        for (statistics, _, givenUp) in results {
            report.add(statistics)
            report.givenUpWhileConnecting = report.givenUpWhileConnecting ?? givenUp
        }
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
    /// With a rate: messages the rate has made due that the window has not let out yet.
    private var due = 0
    private var latencies: [Duration] = []
    /// Set when the client has finished: nothing more is fed.
    private var done = false
    /// A handshake completed on some connection.
    private(set) var handshaked = false
    /// What went wrong on the present connection before a handshake, said when it closes: the
    /// first thing, which explains the rest (an answer in another protocol, then BAD_MAGIC).
    var problem: String?
    /// Why the connection attempt under way when the feeder gave up had not completed.
    private(set) var givenUpWhileConnecting: String?
    /// Why the feeder gave up, when it did: what the messages it never sent were lost to.
    private(set) var stopReason: String?

    private init(configuration: SendConfiguration, session: SessionID, wallClock: @escaping @Sendable () -> Double) {
        self.configuration = configuration
        self.session = session
        self.wallClock = wallClock
        payload = TLVEncoder.encode(configuration.fields)
    }

    static func start(
        _ configuration: SendConfiguration, session: SessionID, eventLoop: EventLoop, clock: @escaping @Sendable () -> UInt32,
        wallClock: @escaping @Sendable () -> Double, onConnectionProblem: @escaping @Sendable (String) -> Void,
        started: (NIOLoopBound<SendFeeder>) -> Void
    ) -> EventLoopFuture<(ClientStatistics, [Duration], String?)> {
        let feeder = NIOLoopBound(SendFeeder(configuration: configuration, session: session, wallClock: wallClock), eventLoop: eventLoop)
        var client = configuration.client
        client.session = session
        let server = HostAndPort(host: configuration.host, port: configuration.port)
        let connection = ClientConnection(
            host: configuration.host, port: configuration.port, configuration: client, eventLoop: eventLoop, unixSeconds: clock,
            onEvent: { event in
                if let problem = feeder.value.handle(event) { onConnectionProblem("\(server) \(problem)") }
            },
            onConnectionProblem: { reason in
                // Once given up, the attempt under way is not one more problem while trying: it is why the client stopped.
                if feeder.value.done { feeder.value.givenUpWhileConnecting = reason } else { onConnectionProblem(reason) }
            },
            onBroken: { reason in feeder.value.problem = feeder.value.problem ?? "broke the connection (\(reason))" },
            onFirstBytes: { bytes in
                if let foreign = ForeignProtocol(recognising: bytes) { feeder.value.problem = "answered with \(foreign), not with Decaf frames" }
            },
            onUnfinishedFrame: { frame in
                guard !feeder.value.handshaked else { return }
                let reason = "\(server) \(frame.description) in answer to the handshake, and had not finished it when the client gave up (a server this slow, or stuck in the middle of a frame)"
                if feeder.value.done { feeder.value.givenUpWhileConnecting = reason } else { feeder.value.problem = feeder.value.problem ?? reason }
            }
        )
        feeder.value.connection = connection
        started(feeder)
        let deadline = eventLoop.scheduleTask(in: TimeAmount(configuration.deadline)) {
            feeder.value.giveUp(reason: "not acknowledged by --deadline (\(Int(configuration.deadline / .milliseconds(1))) ms)")
        }
        let connectDeadline = eventLoop.scheduleTask(in: TimeAmount(configuration.connectDeadline)) {
            if !feeder.value.handshaked {
                feeder.value.giveUp(reason: "no handshake completed within --connect-deadline (\(Int(configuration.connectDeadline / .milliseconds(1))) ms)")
            }
        }
        connection.start()
        if let rate = configuration.rate {
            let interval = TimeAmount.nanoseconds(max(1, 1_000_000_000 / Int64(rate)))
            eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: interval) { task in
                if feeder.value.done || !feeder.value.rateTick() { task.cancel() }
            }
        } else {
            feeder.value.feed(upTo: configuration.client.window * 2)
        }
        return connection.finished.map { statistics in
            deadline.cancel()
            connectDeadline.cancel()
            // Messages never handed to the client, because it stopped first, are lost too.
            var statistics = statistics
            let unsent = configuration.count - feeder.value.submitted
            statistics.failed += unsent
            if unsent > 0 { statistics.failureReasons["never sent: " + (feeder.value.stopReason ?? "the client stopped first"), default: 0] += unsent }
            feeder.value.done = true
            return (statistics, feeder.value.latencies, feeder.value.givenUpWhileConnecting)
        }
    }

    /// Stops feeding and gives up every message not settled: those never submitted count as lost
    /// too, and none is submitted while the session refuses them one by one.
    func giveUp(reason: String) {
        done = true
        stopReason = stopReason ?? reason
        connection?.giveUp(reason: reason)
    }

    /// One more message falls due at the rate; false once every message is submitted.
    func rateTick() -> Bool {
        due += 1
        return feedDue()
    }

    /// With a rate, submits the messages the rate has made due, as far as the window allows; those
    /// it holds back stay due and go as soon as it has room, as an app's outbox keeps what its user
    /// wrote while the network was gone. False once every message is submitted.
    @discardableResult
    private func feedDue() -> Bool {
        let before = submitted
        let more = feed(upTo: due)
        due -= submitted - before
        return more
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

    /// Takes what the session tells the application; returns what went wrong with the server
    /// before a handshake, in the user's words, for the user to hear while the client keeps trying.
    private func handle(_ event: ClientEvent) -> String? {
        switch event {
        case .handshake:
            handshaked = true
            configuration.onConnected?(session, wallClock())
        case let .protocolError(error) where !handshaked:
            problem = problem ?? "sent bytes that break the protocol: \(error)"
        case let .serverError(error) where !handshaked:
            problem = problem ?? "sent ERROR \(error.code) \(ErrorCode(rawValue: error.code)?.name ?? ""): \(error.reason)"
        case .disconnected where !handshaked:
            defer { problem = nil }
            return problem ?? "accepted the connection, but the handshake did not complete (no VERSION_RESPONSE in time, or the connection closed)"
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
            if configuration.rate == nil { feed(upTo: 1) } else { feedDue() }
        case let .failed(id, _):
            settled += 1
            if let message = unsettled.removeValue(forKey: id) { configuration.onMessage?(message) }
            if configuration.rate == nil { feed(upTo: 1) } else { feedDue() }
        default:
            break
        }
        return nil
    }
}
