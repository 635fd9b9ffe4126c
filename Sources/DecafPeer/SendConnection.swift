import DecafNIO
import DecafWire
import NIOCore
import NIOPosix

/// What one `decaf send` connection achieved.
struct SendOutcome: Sendable {
    var report: SendReport
    var latencies: [Duration]
}

/// One connection of `decaf send`, confined to its event loop. It behaves like a well-written
/// mobile client: handshake first, then DATA frames within a window (and a rate, if set); a frame
/// not acknowledged in time is sent again with the same sequence and timestamp, so the server can
/// recognise the repeat (EX-7, REPLAY-1), up to the retry limit; read receipts are acknowledged
/// (EX-4); heartbeats go out at their interval; a dropped connection is reopened after a backoff,
/// the handshake repeated and everything unacknowledged sent again.
final class SendConnection {
    private struct Message {
        var timestamp: UInt32 = 0
        var firstSent: NIODeadline?
        var lastSent = NIODeadline.uptimeNanoseconds(0)
        var attempts = 0
        var state = State.pending

        enum State { case pending, inFlight, acknowledged, lost }
    }

    let eventLoop: EventLoop
    private let configuration: SendConfiguration
    private let session: SessionID
    private let payload: [UInt8]
    private let clock: @Sendable () -> UInt32
    private let promise: EventLoopPromise<SendOutcome>
    private var random = SystemRandomNumberGenerator()

    private var messages: [Message]
    private var nextNew = 0
    /// Messages to send again after a reconnect, in order.
    private var resend: [Int] = []
    /// Messages sent and not yet settled, oldest first.
    private var inFlight: [Int] = []
    private var channel: Channel?
    private var ready = false
    private var version = ProtocolVersion.v1_0
    private var controlCounter: UInt32 = 0
    private var heartbeatCounter: UInt32 = 0
    private var reconnectAttempt = 0
    private var finished = false
    private var nextSlot: NIODeadline?
    private var wakeScheduled = false
    private var latencies: [Duration] = []
    private var report = SendReport()
    private var timers: [RepeatedTask] = []
    private var deadline: Scheduled<Void>?
    /// Whether the last handshake agreed on read receipts (EX-4).
    private var expectsReadReceipts = false
    /// Set once every message is settled and the connection only waits for read receipts.
    private var lingering: Scheduled<Void>?

    init(eventLoop: EventLoop, configuration: SendConfiguration, session: SessionID, clock: @escaping @Sendable () -> UInt32) {
        self.eventLoop = eventLoop
        self.configuration = configuration
        self.session = session
        self.clock = clock
        payload = TLVEncoder.encode(configuration.fields)
        messages = Array(repeating: Message(), count: configuration.count)
        latencies.reserveCapacity(configuration.count)
        promise = eventLoop.makePromise()
        report.connections = 1
    }

    /// Connects and sends; the future completes when every message is settled.
    func start() -> EventLoopFuture<SendOutcome> {
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        deadline = eventLoop.scheduleTask(in: TimeAmount(configuration.deadline)) {
            bound.value.giveUp()
        }
        if configuration.count == 0 { finish() } else { connect() }
        return promise.futureResult
    }

    // MARK: - Connection

    private func connect() {
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(ByteToMessageHandler(FrameDecoderHandler(options: .observer)))
                    try pipeline.addHandler(MessageToByteHandler(FrameEncoderHandler()))
                    try pipeline.addHandler(SendChannelHandler(connection: bound.value))
                }
            }
            .connect(host: configuration.host, port: configuration.port)
            .whenFailure { _ in bound.value.disconnected() }
    }

    func connected(_ channel: Channel) {
        guard !finished else {
            channel.close(promise: nil)
            return
        }
        self.channel = channel
        controlCounter += 1
        let request = VersionRequest(version: .v1_0, features: configuration.features.union(.basic))
        write(FrameHeader(messageType: .control, sequence: SequenceNumber(category: .control, counter: controlCounter),
                          timestamp: clock(), sessionID: session), payload: TLVEncoder.encode([request.field]))
        channel.flush()
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        let scan = max(configuration.ackTimeout / 4, .milliseconds(10))
        timers.append(eventLoop.scheduleRepeatedTask(initialDelay: TimeAmount(scan),
                                                     delay: TimeAmount(scan)) { _ in
            bound.value.retransmitOverdue()
        })
        if let heartbeat = configuration.heartbeat {
            let interval = TimeAmount(heartbeat)
            timers.append(eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                bound.value.sendHeartbeat()
            })
        }
    }

    func disconnected() {
        channel = nil
        ready = false
        timers.forEach { $0.cancel() }
        timers = []
        guard !finished else { return }
        for index in inFlight { messages[index].state = .pending }
        resend = (inFlight + resend).sorted()
        inFlight = []
        guard let delay = configuration.reconnect.delay(attempt: reconnectAttempt, base: configuration.reconnectBase,
                                                        cap: configuration.maxDelay, using: &random) else {
            giveUp()
            return
        }
        reconnectAttempt += 1
        report.reconnects += 1
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.scheduleTask(in: TimeAmount(delay)) { bound.value.connect() }
    }

    // MARK: - Frames in

    func received(_ frame: Frame) {
        let header = frame.header
        switch header.messageType {
        case .ack:
            if header.sequence.category == .normal {
                messageAcknowledged(Int(header.sequence.counter) - 1)
            } else if header.sequence.category == .heartbeat {
                report.heartbeatsAcknowledged += 1
            }
        case .control:
            for field in frame.fields {
                switch field.interpreted {
                case let .versionResponse(response): handshakeCompleted(response)
                case let .error(error): report.serverErrors.append(error)
                default: break
                }
            }
            sendAck(for: frame)
        case .readReceipt:
            report.readReceipts += 1
            sendAck(for: frame)
            if lingering != nil { finishIfSettled() }
        case .data, .heartbeat:
            sendAck(for: frame)
        default:
            break
        }
        channel?.flush()
    }

    /// Sends the ACK a received frame is owed (EX-1, EX-2).
    private func sendAck(for frame: Frame) {
        write(frame.header.acknowledgement(timestamp: clock(), version: version))
    }

    private func handshakeCompleted(_ response: VersionResponse) {
        report.negotiated = [response]
        guard response.version.major == ProtocolVersion.v1_0.major else {
            giveUp()
            return
        }
        version = response.version
        expectsReadReceipts = response.features.contains(.readReceipt)
        ready = true
        reconnectAttempt = 0
        fill()
    }

    private func messageAcknowledged(_ index: Int) {
        guard messages.indices.contains(index), messages[index].state == .inFlight, let firstSent = messages[index].firstSent else {
            report.duplicateAcks += 1
            return
        }
        messages[index].state = .acknowledged
        report.acknowledged += 1
        latencies.append(.nanoseconds((NIODeadline.now() - firstSent).nanoseconds))
        if let position = inFlight.firstIndex(of: index) { inFlight.remove(at: position) }
        finishIfSettled()
        fill()
    }

    // MARK: - Frames out

    /// Sends new and pending messages while the window and the rate allow.
    private func fill() {
        guard ready, let channel, !finished else { return }
        var wrote = false
        let interval = configuration.rate.map { TimeAmount.nanoseconds(1_000_000_000 / Int64(max(1, $0))) }
        while inFlight.count < configuration.window {
            if let interval {
                let now = NIODeadline.now()
                let slot = max(nextSlot ?? now, now - interval * 4)
                guard slot <= now else {
                    wake(at: slot)
                    break
                }
                nextSlot = slot + interval
            }
            let index: Int
            if !resend.isEmpty {
                index = resend.removeFirst()
            } else if nextNew < messages.count {
                index = nextNew
                nextNew += 1
            } else {
                break
            }
            transmit(index)
            wrote = true
        }
        if wrote { channel.flush() }
    }

    private func transmit(_ index: Int) {
        let now = NIODeadline.now()
        if messages[index].firstSent == nil {
            messages[index].firstSent = now
            messages[index].timestamp = clock()
            report.sent += 1
        } else {
            report.retransmissions += 1
        }
        messages[index].attempts += 1
        messages[index].lastSent = now
        messages[index].state = .inFlight
        inFlight.append(index)
        sendData(index)
    }

    private func sendData(_ index: Int) {
        var header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: UInt32(index + 1)),
                                 timestamp: messages[index].timestamp, sessionID: session, version: version)
        header.compressType = configuration.compress ? .zlib : .none
        write(header, payload: payload)
    }

    /// Sends again each message whose ACK is overdue, or gives it up after the last retry.
    private func retransmitOverdue() {
        guard ready, let channel else { return }
        let now = NIODeadline.now()
        let timeout = TimeAmount(configuration.ackTimeout)
        var wrote = false
        for index in inFlight where now - messages[index].lastSent >= timeout {
            if messages[index].attempts > configuration.retries {
                messages[index].state = .lost
                report.lost += 1
            } else {
                messages[index].attempts += 1
                messages[index].lastSent = now
                report.retransmissions += 1
                sendData(index)
                wrote = true
            }
        }
        inFlight.removeAll { messages[$0].state == .lost }
        if wrote { channel.flush() }
        finishIfSettled()
        fill()
    }

    private func sendHeartbeat() {
        guard ready, let channel else { return }
        heartbeatCounter += 1
        write(FrameHeader(messageType: .heartbeat, sequence: SequenceNumber(category: .heartbeat, counter: heartbeatCounter),
                          timestamp: clock(), sessionID: session, version: version))
        channel.flush()
    }

    private func write(_ header: FrameHeader, payload: [UInt8] = []) {
        channel?.write(OutgoingFrame(header: header, payload: payload), promise: nil)
    }

    private func wake(at slot: NIODeadline) {
        guard !wakeScheduled else { return }
        wakeScheduled = true
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.scheduleTask(deadline: slot) {
            bound.value.wakeScheduled = false
            bound.value.fill()
        }
    }

    // MARK: - Ending

    /// Ends once every message is acknowledged or lost and, when read receipts were agreed, every
    /// acknowledged message's receipt has come (or an ACK timeout has passed without it).
    private func finishIfSettled() {
        guard report.acknowledged + report.lost == messages.count else { return }
        guard expectsReadReceipts, report.readReceipts < report.acknowledged else {
            finish()
            return
        }
        guard lingering == nil else { return }
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        lingering = eventLoop.scheduleTask(in: TimeAmount(configuration.ackTimeout)) {
            bound.value.finish()
        }
    }

    /// Counts everything not yet acknowledged as lost and ends.
    private func giveUp() {
        guard !finished else { return }
        for index in messages.indices where messages[index].state == .pending || messages[index].state == .inFlight {
            messages[index].state = .lost
            report.lost += 1
        }
        finish()
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        deadline?.cancel()
        lingering?.cancel()
        timers.forEach { $0.cancel() }
        // ACKs written while handling the last frame go out before the close (EX-1, EX-4).
        channel?.flush()
        channel?.close(promise: nil)
        promise.succeed(SendOutcome(report: report, latencies: latencies))
    }
}

/// Passes a `decaf send` connection's events to its `SendConnection`.
final class SendChannelHandler: ChannelInboundHandler {
    typealias InboundIn = Frame

    private let connection: SendConnection

    init(connection: SendConnection) { self.connection = connection }

    func channelActive(context: ChannelHandlerContext) {
        connection.connected(context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.received(unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.disconnected()
        context.fireChannelInactive()
    }
}
