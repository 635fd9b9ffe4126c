import DecafSession
import DecafWire
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// A client on SwiftNIO: a thin shell that carries out what its `ClientSession` decides. It opens
/// connections, writes frames, runs the session's timers, and feeds back frames, protocol errors,
/// closes and failed connection attempts, with the time and the randomness the session needs.
/// Everything happens on one event loop; the methods may be called from anywhere.
public final class ClientConnection: Sendable {
    /// The loop the connection runs on.
    public let eventLoop: EventLoop
    private let driver: NIOLoopBoundBox<ClientDriver>

    /// Completes when the session finishes: every message settled after the end of the input, or
    /// given up.
    public let finished: EventLoopFuture<ClientStatistics>

    /// A client of `host`:`port` behaving as `configuration` says. `onEvent` hears what the session
    /// tells its application; `onConnectionProblem` hears, in the user's words, why an attempt to
    /// connect failed, and `onBroken` why an open connection broke ("connection reset by peer");
    /// `onFirstBytes` hears the first bytes
    /// each connection received (its first read, up to 256 bytes), before any frame or protocol
    /// error from them, so a reply that is not Decaf can be named; `onUnfinishedFrame` hears of a
    /// frame the server had begun and not finished when the client closed the connection.
    /// All are called on `eventLoop`. `unixSeconds` is the clock for timestamps.
    public init(
        host: String, port: Int, configuration: ClientConfiguration, eventLoop: EventLoop,
        unixSeconds: @escaping @Sendable () -> UInt32,
        onEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in },
        onConnectionProblem: @escaping @Sendable (String) -> Void = { _ in },
        onBroken: @escaping @Sendable (String) -> Void = { _ in },
        onFirstBytes: @escaping @Sendable ([UInt8]) -> Void = { _ in },
        onUnfinishedFrame: @escaping @Sendable (UnfinishedFrame) -> Void = { _ in }
    ) {
        self.eventLoop = eventLoop
        let finished = eventLoop.makePromise(of: ClientStatistics.self)
        self.finished = finished.futureResult
        driver = .makeBoxSendingValue(ClientDriver(host: host, port: port, configuration: configuration, eventLoop: eventLoop, finished: finished,
                                                   unixSeconds: unixSeconds, onEvent: onEvent, onConnectionProblem: onConnectionProblem,
                                                   onBroken: onBroken, onFirstBytes: onFirstBytes, onUnfinishedFrame: onUnfinishedFrame),
                                      eventLoop: eventLoop)
    }

    /// Connects and starts the handshake.
    public func start() { run { $0.start() } }

    /// Queues a message; it goes out once the handshake has agreed and the window allows.
    public func submit(_ message: ClientMessage) { run { $0.submit(message) } }

    /// Nothing more will be submitted: the client finishes once every message is settled.
    public func endOfInput() { run { $0.endOfInput() } }

    /// Gives up everything not yet settled and finishes.
    public func giveUp(reason: String) { run { $0.giveUp(reason: reason) } }

    /// Adds the handlers that turn a client connection's bytes into frames and its frames into
    /// bytes, as `configuration` says, its faults included (the checksum written in host order,
    /// bodies marked zlib and left plain, a read taken as a frame): the client's whole codec, for a socket or a channel in
    /// memory. `localClose` tells the decoder which closes were the client's own; `now` is the
    /// clock of a timestamp window, when the client has one.
    public static func addCodecHandlers(to pipeline: ChannelPipeline.SynchronousOperations, configuration: ClientConfiguration,
                                        localClose: LocalClose? = nil, now: (() -> UInt32)? = nil) throws {
        if configuration.faults.contains(.checksumInHostOrder) { try pipeline.addHandler(ChecksumByteSwapHandler()) }
        if configuration.faults.contains(.framePerRead) {
            try pipeline.addHandler(ByteToMessageHandler(FramePerReadDecoderHandler(options: configuration.effectiveDecodeOptions)))
        } else {
            try pipeline.addHandler(ByteToMessageHandler(FrameDecoderHandler(options: configuration.effectiveDecodeOptions, now: now,
                                                                                    judgesHeaderWhole: configuration.choices.contains(.wholeHeader),
                                                                                    localClose: localClose)))
        }
        if configuration.faults.contains(.plainBodyMarkedZlib) {
            try pipeline.addHandler(MessageToByteHandler(PlainBodyEncoderHandler()))
        } else {
            try pipeline.addHandler(MessageToByteHandler(FrameEncoderHandler()))
        }
    }

    private func run(_ body: @escaping @Sendable (ClientDriver) -> Void) {
        let driver = self.driver
        if eventLoop.inEventLoop { body(driver.value) } else { eventLoop.execute { body(driver.value) } }
    }
}

/// The event-loop side of a `ClientConnection`: the session, the open channel and the timers.
final class ClientDriver {
    private var session: ClientSession
    private let host: String
    private let port: Int
    private let eventLoop: EventLoop
    private let unixSeconds: @Sendable () -> UInt32
    private let onEvent: @Sendable (ClientEvent) -> Void
    private let onConnectionProblem: @Sendable (String) -> Void
    private let onBroken: @Sendable (String) -> Void
    private let onFirstBytes: @Sendable ([UInt8]) -> Void
    private let onUnfinishedFrame: @Sendable (UnfinishedFrame) -> Void
    let finished: EventLoopPromise<ClientStatistics>

    private let started = NIODeadline.now()
    private var random = SystemRandomNumberGenerator()
    private var channel: Channel?
    /// Counts connections, so events from a connection that has been replaced are ignored.
    private var generation = 0
    private var timers: [ClientTimer: Scheduled<Void>] = [:]
    /// The session finished (its messages settled or given up): a connection attempt still under
    /// way is no longer a problem worth saying.
    private var over = false
    /// When the connection attempt under way began, until it completes or fails.
    private var connecting: NIODeadline?

    init(host: String, port: Int, configuration: ClientConfiguration, eventLoop: EventLoop, finished: EventLoopPromise<ClientStatistics>,
         unixSeconds: @escaping @Sendable () -> UInt32,
         onEvent: @escaping @Sendable (ClientEvent) -> Void, onConnectionProblem: @escaping @Sendable (String) -> Void,
         onBroken: @escaping @Sendable (String) -> Void, onFirstBytes: @escaping @Sendable ([UInt8]) -> Void,
         onUnfinishedFrame: @escaping @Sendable (UnfinishedFrame) -> Void) {
        session = ClientSession(configuration: configuration)
        self.onUnfinishedFrame = onUnfinishedFrame
        self.onBroken = onBroken
        self.onFirstBytes = onFirstBytes
        self.host = host
        self.port = port
        self.eventLoop = eventLoop
        self.unixSeconds = unixSeconds
        self.onEvent = onEvent
        self.onConnectionProblem = onConnectionProblem
        self.finished = finished
    }

    private var now: SessionTime {
        SessionTime(elapsed: .nanoseconds((NIODeadline.now() - started).nanoseconds), unixSeconds: unixSeconds())
    }

    func start() { perform(session.start(at: now)) }
    func submit(_ message: ClientMessage) { perform(session.submit(message, at: now)) }
    func endOfInput() { perform(session.endOfInput(at: now)) }
    func giveUp(reason: String) {
        if let since = connecting, !over {
            // Given up while the server had not accepted: its socket's real state, not a silence.
            let waited = Duration.nanoseconds((NIODeadline.now() - since).nanoseconds)
            onConnectionProblem(ConnectionFailure.notAccepted(HostAndPort(host: host, port: port), waited: waited))
        }
        perform(session.giveUp(reason: reason, at: now))
    }

    // MARK: - Channel events

    func active(_ channel: Channel, generation: Int) {
        guard generation == self.generation else {
            channel.close(promise: nil)
            return
        }
        self.channel = channel
        connecting = nil
        perform(session.connected(at: now))
    }

    func received(_ frame: Frame, generation: Int) {
        guard generation == self.generation else { return }
        perform(session.received(frame, at: now))
    }

    func failed(_ error: WireError, generation: Int) {
        guard generation == self.generation else { return }
        perform(session.failed(error, at: now))
    }

    func receivedFirst(_ bytes: [UInt8], generation: Int) {
        guard generation == self.generation else { return }
        onFirstBytes(bytes)
    }

    func unfinished(_ frame: UnfinishedFrame, generation: Int) {
        guard generation == self.generation else { return }
        onUnfinishedFrame(frame)
    }

    func broke(_ error: Error, generation: Int) {
        guard generation == self.generation else { return }
        onBroken(ConnectionFailure.reason(error))
    }

    func inactive(generation: Int) {
        guard generation == self.generation else { return }
        channel = nil
        perform(session.connectionLost(at: now, random: &random))
    }

    // MARK: - Actions

    private func perform(_ actions: [ClientAction]) {
        var wrote = false
        var finishing = false
        let open = channel
        for action in actions {
            switch action {
            case .connect:
                connect()
            case let .send(frame):
                channel?.write(frame, promise: nil)
                wrote = true
            case .close:
                channel?.flush()
                wrote = false
                channel?.close(promise: nil)
            case let .schedule(timer, delay):
                timers[timer]?.cancel()
                timers[timer] = eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { [self] in
                    timers[timer] = nil
                    perform(session.timerFired(timer, at: now, random: &random))
                }
            case let .cancel(timer):
                timers.removeValue(forKey: timer)?.cancel()
            case let .abort(reason):
                fatalError("planted fault: \(reason)")
            case let .exit(status, saying):
                let line = Array((saying + "\n").utf8)
                _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
                Glibc.exit(status)
            case let .report(event):
                onEvent(event)
                if event == .finished {
                    over = true
                    finishing = true
                }
            }
        }
        if wrote { channel?.flush() }
        guard finishing else { return }
        // Finished once the connection's close has gone through the pipeline, so what the close
        // cut short (an unfinished frame) is told before the statistics are.
        let statistics = session.statistics
        if let open { open.closeFuture.whenComplete { [finished] _ in finished.succeed(statistics) } } else { finished.succeed(statistics) }
    }

    private func connect() {
        generation += 1
        let generation = self.generation
        connecting = .now()
        let driver = NIOLoopBound(self, eventLoop: eventLoop)
        let configuration = session.configuration
        let unixSeconds = self.unixSeconds
        ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(TimeAmount(session.configuration.connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    let localClose = LocalClose()
                    try pipeline.addHandler(localClose)
                    try pipeline.addHandler(FirstBytesHandler { bytes in driver.value.receivedFirst(bytes, generation: generation) })
                    try ClientConnection.addCodecHandlers(to: pipeline, configuration: configuration, localClose: localClose, now: unixSeconds)
                    try pipeline.addHandler(ClientChannelHandler(driver: driver, generation: generation))
                }
            }
            .connect(host: host, port: port)
            .whenFailure { error in
                let driver = driver.value
                guard generation == driver.generation, !driver.over else { return }
                driver.connecting = nil
                driver.onConnectionProblem(ConnectionFailure.attempt(to: HostAndPort(host: driver.host, port: driver.port), failed: error))
                driver.perform(driver.session.connectFailed(at: driver.now, random: &driver.random))
            }
    }
}

/// Passes a client connection's frames, errors and close to its driver.
final class ClientChannelHandler: ChannelInboundHandler {
    typealias InboundIn = Frame

    private let driver: NIOLoopBound<ClientDriver>
    private let generation: Int

    init(driver: NIOLoopBound<ClientDriver>, generation: Int) {
        self.driver = driver
        self.generation = generation
    }

    func channelActive(context: ChannelHandlerContext) {
        driver.value.active(context.channel, generation: generation)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        driver.value.received(unwrapInboundIn(data), generation: generation)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? WireError {
            driver.value.failed(error, generation: generation)
        } else if case ByteToMessageDecoderError.dataReceivedInErrorState = error {
            // Bytes after a protocol error: the session already decided what that error means
            // (an ERROR and a close), and more bytes change nothing.
            return
        } else {
            driver.value.broke(error, generation: generation)
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let frame = event as? UnfinishedFrame { driver.value.unfinished(frame, generation: generation) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        driver.value.inactive(generation: generation)
        context.fireChannelInactive()
    }
}
