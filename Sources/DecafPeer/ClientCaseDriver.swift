import DecafConformance
import DecafNIO
import DecafSession
import DecafWire
import Foundation
import NIOCore
import NIOExtras
import NIOPosix

/// One run of one client case on one event loop: the listener and connections of the scripted
/// server, the testee processes (`ClientTestees`), and the timers. It only moves bytes, lines and
/// timers between them and the `ScriptedServer`; the judge decides on the observation.
final class ClientCaseDriver {
    private let testCase: ClientCase
    private let settings: ClientRunSettings
    private let pcap: NIOWritePCAPHandler.SynchronizedFileSink?
    private let eventLoop: EventLoop
    private let outcome: EventLoopPromise<ClientCaseOutcome>
    private var server: ScriptedServer
    private let started = NIODeadline.now()

    private var listener: Channel?
    private var port = 0
    private var connections: [Int: Channel] = [:]
    private var timers: [Int: Scheduled<Void>] = [:]
    private lazy var testees = ClientTestees(eventLoop: eventLoop, driver: bound)
    private var transcript = BoundedTranscript()
    private var ending = false
    private var done = false
    private var problem: String?
    /// How late the event loop ran: the suite's own clock is only as good as this.
    private let watchdog: LoopWatchdog

    /// A reported line is kept in the transcript up to this many bytes.
    private static let transcriptWriteLimit = 65_536
    /// The testee's standard error is kept in the transcript up to this many bytes, its last.
    private static let noteLimit = 2048

    init(testCase: ClientCase, settings: ClientRunSettings, pcap: NIOWritePCAPHandler.SynchronizedFileSink? = nil, eventLoop: EventLoop,
         outcome: EventLoopPromise<ClientCaseOutcome>) {
        self.testCase = testCase
        self.settings = settings
        self.pcap = pcap
        self.eventLoop = eventLoop
        self.outcome = outcome
        watchdog = LoopWatchdog(eventLoop: eventLoop)
        server = ScriptedServer(script: testCase.script, settings: testCase.suggested)
    }

    private var now: SessionTime {
        SessionTime(elapsed: .nanoseconds((NIODeadline.now() - started).nanoseconds), unixSeconds: settings.clock())
    }

    private var bound: NIOLoopBound<ClientCaseDriver> { NIOLoopBound(self, eventLoop: eventLoop) }

    // MARK: - Start

    func start() {
        watchdog.start()
        listen(on: 0).assumeIsolated().whenComplete { [self] result in
            switch result {
            case let .success(channel):
                listener = channel
                port = channel.localAddress?.port ?? 0
                perform(server.start(at: now))
                startTestees()
                scheduleTimeLimit()
            case let .failure(error):
                problem = "the suite cannot listen on 127.0.0.1: \(ConnectionFailure.reason(error))"
                complete()
            }
        }
    }

    private func listen(on port: Int) -> EventLoopFuture<Channel> {
        let driver = bound
        let pcap = pcap
        return ServerBootstrap(group: eventLoop)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.socketOption(NIOBSDSocket.Option(rawValue: SO_REUSEPORT)), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let pcap { try pipeline.addHandler(NIOWritePCAPHandler(mode: .server, fileSink: pcap.write)) }
                    try pipeline.addHandler(ScriptedConnectionRecorder(driver: driver))
                    try pipeline.addHandler(ByteToMessageHandler(FrameDecoderHandler()))
                    try pipeline.addHandler(ScriptedConnectionHandler(driver: driver))
                }
            }
            .bind(host: "127.0.0.1", port: port)
    }

    private func startTestees() {
        let environment = TesteeLaunch.environment(testCase.suggested.environment(host: "127.0.0.1", port: port, caseID: testCase.id, heartbeats: testCase.heartbeats))
        let input = testCase.messages.map { $0.line + "\n" }.joined()
        let failures = testees.start(settings.command, environment: environment, count: testCase.instances, input: input, endsInput: testCase.endsInput,
                                     lineLimit: testCase.longestLine)
        for (instance, reason) in failures.sorted(by: { $0.key < $1.key }) { server.exited(instance: instance, .cannotStart(reason)) }
        if testees.allDone { begin(ending: false) }
    }

    private func scheduleTimeLimit() {
        let limit = testCase.timeLimit(for: server.observation.settings)
        let elapsed = now.elapsed
        guard elapsed < limit else { return begin(ending: true) }
        eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limit - elapsed)) { [self] in
            if !ending { scheduleTimeLimit() }
        }
    }

    // MARK: - Events

    func accepted(_ channel: Channel) -> Int? {
        guard !done else {
            channel.close(promise: nil)
            return nil
        }
        let (index, actions) = server.accepted(at: now)
        connections[index] = channel
        perform(actions)
        return index
    }

    func read(_ bytes: [UInt8], on index: Int) {
        record(TranscriptEntry(direction: .received, time: now.elapsed, bytes: bytes, connection: index))
    }

    func received(_ frame: Frame, on index: Int) { perform(server.received(frame, on: index, at: now)) }

    func failed(_ error: WireError, on index: Int) { perform(server.failed(error, on: index, at: now)) }

    func closed(_ index: Int) {
        let byClient = connections.removeValue(forKey: index) != nil
        if byClient { note("the client closed connection \(index + 1)", connection: index) }
        perform(server.closed(index, at: now))
    }

    func line(_ text: String, from instance: Int) {
        guard !done else { return }
        record(TranscriptEntry(direction: .reported, time: now.elapsed, bytes: Array(text.utf8.prefix(Self.transcriptWriteLimit)), connection: nil))
        guard let event = ClientTesteeEvent(line: text, defaults: testCase.suggested) else {
            // A testee that prints what is not an event cannot be understood: the case ends now.
            server.garbled(text)
            return begin(ending: false)
        }
        perform(server.reported(event, instance: instance, at: now))
    }

    /// The testee's output ended in the middle of a line: not an event, unless the suite stopped
    /// the testee while it was writing it.
    func unterminatedLine(_ text: String, from instance: Int) {
        guard !done, !testees.isStopped(instance) else { return }
        line(text, from: instance)
    }

    func lineTooLong(from instance: Int) {
        guard !done else { return }
        server.garbled("a line longer than \(testCase.longestLine) bytes, longer than any event of this case")
    }

    func outputClosed(_ instance: Int) {
        if testees.outputClosed(instance) { checkTestees() }
    }

    func exited(_ instance: Int, _ exit: ClientObservation.Exit) {
        guard let seen = testees.exited(instance, exit) else { return }
        note(testees.count > 1 ? "testee \(instance + 1) \(Self.describe(seen))" : "the testee \(Self.describe(seen))")
        server.exited(instance: instance, seen)
        checkTestees()
    }

    func outputArrived(_ instance: Int) {
        testees.outputArrived(instance)
    }

    private func checkTestees() {
        guard testees.allDone else { return }
        if ending { complete() } else { begin(ending: false) }
    }

    // MARK: - Actions

    private func perform(_ actions: [ScriptedServerAction]) {
        for action in actions {
            switch action {
            case let .write(index, bytes, label):
                guard let channel = connections[index] else { continue }
                record(TranscriptEntry(direction: .sent, time: now.elapsed, bytes: bytes, label: label, connection: index))
                channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
            case let .close(index):
                guard let channel = connections.removeValue(forKey: index) else { continue }
                note("the server's script closed connection \(index + 1)", connection: index)
                channel.close(promise: nil)
            case let .reset(index):
                guard let channel = connections.removeValue(forKey: index) else { continue }
                note("the server's script reset connection \(index + 1)", connection: index)
                let lingers = (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)) ?? eventLoop.makeSucceededVoidFuture()
                lingers.whenComplete { _ in channel.close(promise: nil) }
            case let .schedule(token, delay):
                timers[token] = eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { [self] in
                    timers[token] = nil
                    perform(server.timerFired(token, at: now))
                }
            case let .refuseConnections(duration):
                refuse(for: duration)
            case .finish:
                begin(ending: false)
            }
        }
    }

    /// Closes the listener, and opens it again on the same port after `duration`; meanwhile the
    /// port is reserved, so connections are refused and no other socket takes it.
    private func refuse(for duration: Duration) {
        let reservation = PortReservation(port: port)
        listener?.close(promise: nil)
        listener = nil
        eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) { [self] in
            guard !done else { return }
            listen(on: port).assumeIsolated().whenComplete { [self] result in
                withExtendedLifetime(reservation) {}
                switch result {
                case let .success(channel):
                    if done { channel.close(promise: nil) } else { listener = channel }
                case let .failure(error):
                    problem = "the suite cannot listen on port \(port) again: \(ConnectionFailure.reason(error))"
                    begin(ending: false)
                }
            }
        }
    }

    private func record(_ entry: TranscriptEntry) {
        transcript.append(entry)
    }

    /// Notes in the transcript what happened to a connection or a testee, as the suite saw it.
    private func note(_ text: String, connection: Int? = nil) {
        record(TranscriptEntry(direction: .noted, time: now.elapsed, bytes: Array(text.utf8), connection: connection))
    }

    /// `exited with status 1`, `was killed by signal 6`, `was stopped by the suite at the case's end`.
    private static func describe(_ exit: ClientObservation.Exit) -> String {
        switch exit {
        case let .status(status): "exited with status \(status)"
        case let .signal(signal): "was killed by signal \(signal)"
        case .stopped: "was stopped by the suite at the case's end"
        case let .cannotStart(why): "could not be started: \(why)"
        }
    }

    // MARK: - The end

    /// Ends the case: the input ends, testees that do not exit in time are stopped, then the
    /// observation goes to the judge.
    private func begin(ending timedOut: Bool) {
        guard !ending else { return }
        ending = true
        server.end(at: now, timedOut: timedOut, lastWords: "")
        testees.endInput()
        if testees.allDone { return complete() }
        testees.stop(after: .milliseconds(1500)) { [self] in complete() }
    }

    /// The run was interrupted: the testees are stopped at once (killed if they have not gone a
    /// second later) and the case ends without waiting for them.
    func interrupt() {
        guard !done else { return }
        ending = true
        testees.interrupt()
        complete()
    }

    private func complete() {
        guard !done else { return }
        done = true
        server.end(at: now, timedOut: false, lastWords: lastWords)
        server.closingAll(at: now)
        for index in connections.keys.sorted() { note("the suite closed connection \(index + 1) at the case's end", connection: index) }
        let standardError = testees.standardError
        if standardError.total > 0 {
            let kept = standardError.tail.suffix(Self.noteLimit)
            note("the testee's standard error, its last \(kept.count) of \(standardError.total) bytes: " + String(decoding: kept, as: UTF8.self))
        }
        for timer in timers.values { timer.cancel() }
        watchdog.stop()
        listener?.close(promise: nil)
        testees.release()
        for channel in connections.values { channel.close(promise: nil) }
        outcome.succeed(ClientCaseOutcome(observation: server.observation, transcript: transcript.entries, problem: problem,
                                          held: max(watchdog.held, server.observation.behindScript)))
    }

    /// What the testee said last on its standard error (`LastWords`), or "".
    private var lastWords: String {
        LastWords.of(String(decoding: testees.standardError.tail, as: UTF8.self))
    }
}
