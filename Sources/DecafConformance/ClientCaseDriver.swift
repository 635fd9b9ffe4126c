import DecafNIO
import DecafSession
import DecafWire
import Foundation
import NIOCore
import NIOPosix

/// One run of one client case on one event loop: the listener and connections of the scripted
/// server, the testee processes and their pipes, and the timers. It only moves bytes, lines and
/// timers between them and the `ScriptedServer`; the judge decides on the observation.
final class ClientCaseDriver {
    private let testCase: ClientCase
    private let settings: ClientRunSettings
    private let eventLoop: EventLoop
    private let outcome: EventLoopPromise<ClientCaseOutcome>
    private var server: ScriptedServer
    private let started = NIODeadline.now()

    private var listener: Channel?
    private var port = 0
    private var connections: [Int: Channel] = [:]
    private var timers: [Int: Scheduled<Void>] = [:]
    private var testees: [Testee] = []
    private var transcript = BoundedTranscript()
    /// What the testees wrote on their standard error: the last 16 KiB, to quote their last line.
    private var standardError = BoundedOutput(head: 0, tail: 16_384)
    private var ending = false
    private var done = false
    private var problem: String?
    /// The longest the event loop ran late: the suite's own clock is only as good as this.
    private var held: Duration = .zero
    private var watchdog: Scheduled<Void>?

    /// One testee process and its pipes.
    private struct Testee {
        /// nil when it could not be started.
        var process: SpawnedProcess?
        var pipes: Channel?
        var errors: Channel?
        var exit: ClientObservation.Exit?
        var outputClosed = false
        var stopped = false
        /// When the testee's output last brought bytes.
        var lastOutput = NIODeadline.now()
        var isDone: Bool { exit != nil && outputClosed }
    }

    /// A reported line is kept in the transcript up to this many bytes.
    private static let transcriptWriteLimit = 65_536
    /// The testee's standard error is kept in the transcript up to this many bytes, its last.
    private static let noteLimit = 2048
    /// How often the watchdog looks at the event loop's clock.
    private static let watchdogInterval = TimeAmount.milliseconds(20)

    init(testCase: ClientCase, settings: ClientRunSettings, eventLoop: EventLoop, outcome: EventLoopPromise<ClientCaseOutcome>) {
        self.testCase = testCase
        self.settings = settings
        self.eventLoop = eventLoop
        self.outcome = outcome
        server = ScriptedServer(script: testCase.script, settings: testCase.suggested)
    }

    private var now: SessionTime {
        SessionTime(elapsed: .nanoseconds((NIODeadline.now() - started).nanoseconds), unixSeconds: settings.clock())
    }

    private var bound: NIOLoopBound<ClientCaseDriver> { NIOLoopBound(self, eventLoop: eventLoop) }

    // MARK: - Start

    func start() {
        watch(expecting: .now() + Self.watchdogInterval)
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

    /// Measures how late the event loop runs its timers, so a verdict on time can be set aside
    /// when the suite itself was held up (a loaded machine, a case next door busy with megabytes).
    private func watch(expecting deadline: NIODeadline) {
        watchdog = eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            let now = NIODeadline.now()
            held = max(held, .nanoseconds((now - deadline).nanoseconds))
            watch(expecting: now + Self.watchdogInterval)
        }
    }

    private func listen(on port: Int) -> EventLoopFuture<Channel> {
        let driver = bound
        return ServerBootstrap(group: eventLoop)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.socketOption(NIOBSDSocket.Option(rawValue: SO_REUSEPORT)), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(ScriptedConnectionRecorder(driver: driver))
                    try pipeline.addHandler(ByteToMessageHandler(FrameDecoderHandler()))
                    try pipeline.addHandler(ScriptedConnectionHandler(driver: driver))
                }
            }
            .bind(host: "127.0.0.1", port: port)
    }

    private func startTestees() {
        let environment = TesteeLaunch.environment(testCase.suggested.environment(host: "127.0.0.1", port: port, caseID: testCase.id, heartbeats: testCase.heartbeats))
        for instance in 0..<testCase.instances {
            let driver = bound
            let eventLoop = eventLoop
            let process: SpawnedProcess
            do {
                process = try SpawnedProcess(
                    executable: TesteeLaunch.executable, arguments: settings.command, environment: environment,
                    standardInput: .pipe, standardOutput: .pipe, standardError: .pipe
                ) { ended in
                    let exit: ClientObservation.Exit = switch ended {
                    case let .signalled(signal): .signal(signal)
                    case let .exited(status): .status(status)
                    }
                    eventLoop.execute { driver.value.exited(instance, exit) }
                }
            } catch {
                server.exited(instance: instance, .cannotStart("\(settings.command.first ?? "") cannot be run: \(error.description)"))
                testees.append(Testee(process: nil, exit: .cannotStart(""), outputClosed: true))
                continue
            }
            testees.append(Testee(process: process))
            let readable = process.pipes.output ?? -1
            let writable = process.pipes.input ?? -1
            let lineLimit = testCase.longestLine
            if let errors = process.pipes.error { readErrors(errors, of: instance) }
            NIOPipeBootstrap(group: eventLoop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(TesteeLineHandler(driver: driver, instance: instance, lineLimit: lineLimit))
                    }
                }
                .takingOwnershipOfDescriptors(input: readable, output: writable)
                .assumeIsolated().whenComplete { [self] result in
                    switch result {
                    case let .success(channel): piped(channel, instance: instance)
                    case .failure: outputClosed(instance)
                    }
                }
        }
        if testees.allSatisfy(\.isDone) { begin(ending: false) }
    }

    /// Reads what testee `instance` writes on its standard error as it comes, keeping its tail:
    /// a testee that writes without end costs 16 KiB and never blocks on a full pipe.
    private func readErrors(_ descriptor: Int32, of instance: Int) {
        let driver = bound
        NIOPipeBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(TesteeErrorHandler { bytes in driver.value.standardError.append(bytes) })
                }
            }
            .takingOwnershipOfDescriptor(input: descriptor)
            .assumeIsolated().whenComplete { [self] result in
                if case let .success(channel) = result { testees[instance].errors = channel } else { close(descriptor) }
            }
    }

    /// The testee's pipes are open: tell it what to send.
    private func piped(_ channel: Channel, instance: Int) {
        testees[instance].pipes = channel
        let lines = testCase.messages.map { $0.line + "\n" }.joined()
        if !lines.isEmpty { channel.writeAndFlush(ByteBuffer(string: lines), promise: nil) }
        if testCase.endsInput || ending { endInput(of: instance) }
    }

    private func endInput(of instance: Int) {
        guard let channel = testees[instance].pipes else { return }
        channel.close(mode: .output, promise: nil)
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
        guard !done, testees.indices.contains(instance), !testees[instance].stopped else { return }
        line(text, from: instance)
    }

    func lineTooLong(from instance: Int) {
        guard !done else { return }
        server.garbled("a line longer than \(testCase.longestLine) bytes, longer than any event of this case")
    }

    func outputClosed(_ instance: Int) {
        guard testees.indices.contains(instance) else { return }
        testees[instance].outputClosed = true
        checkTestees()
    }

    func exited(_ instance: Int, _ exit: ClientObservation.Exit) {
        guard testees.indices.contains(instance), testees[instance].exit == nil else { return }
        testees[instance].exit = testees[instance].stopped ? .stopped : exit
        note(testees.count > 1 ? "testee \(instance + 1) \(Self.describe(testees[instance].exit ?? exit))" : "the testee \(Self.describe(testees[instance].exit ?? exit))")
        server.exited(instance: instance, testees[instance].exit ?? exit)
        awaitEndOfOutput(instance)
        checkTestees()
    }

    func outputArrived(_ instance: Int) {
        guard testees.indices.contains(instance) else { return }
        testees[instance].lastOutput = .now()
    }

    /// After the testee exits, its output ends once the suite has read what is left in the pipe;
    /// a grandchild may hold the pipe open, so output quiet for half a second also counts as ended.
    private func awaitEndOfOutput(_ instance: Int) {
        let quiet = TimeAmount.milliseconds(500)
        eventLoop.assumeIsolated().scheduleTask(deadline: testees[instance].lastOutput + quiet) { [self] in
            guard !testees[instance].outputClosed else { return }
            if NIODeadline.now() - testees[instance].lastOutput >= quiet { outputClosed(instance) } else { awaitEndOfOutput(instance) }
        }
    }

    private func checkTestees() {
        guard !testees.isEmpty, testees.allSatisfy(\.isDone) else { return }
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
        for instance in testees.indices { endInput(of: instance) }
        if testees.allSatisfy(\.isDone) { return complete() }
        let loop = eventLoop.assumeIsolated()
        loop.scheduleTask(in: .milliseconds(1500)) { [self] in
            for instance in testees.indices where testees[instance].exit == nil {
                testees[instance].stopped = true
                testees[instance].process?.signalGroup(SIGTERM)
            }
            loop.scheduleTask(in: .seconds(1)) { [self] in
                for testee in testees where testee.exit == nil { testee.process?.signalGroup(SIGKILL) }
                loop.scheduleTask(in: .seconds(1)) { [self] in complete() }
            }
        }
    }

    /// The run was interrupted: the testees are stopped at once (killed if they have not gone a
    /// second later) and the case ends without waiting for them.
    func interrupt() {
        guard !done else { return }
        ending = true
        for instance in testees.indices where testees[instance].exit == nil {
            testees[instance].stopped = true
            testees[instance].process?.signalGroup(SIGTERM)
        }
        eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { [self] in
            for testee in testees where testee.exit == nil { testee.process?.signalGroup(SIGKILL) }
        }
        complete()
    }

    private func complete() {
        guard !done else { return }
        done = true
        server.end(at: now, timedOut: false, lastWords: lastWords)
        server.closingAll(at: now)
        for index in connections.keys.sorted() { note("the suite closed connection \(index + 1) at the case's end", connection: index) }
        if standardError.total > 0 {
            let kept = standardError.tail.suffix(Self.noteLimit)
            note("the testee's standard error, its last \(kept.count) of \(standardError.total) bytes: " + String(decoding: kept, as: UTF8.self))
        }
        for timer in timers.values { timer.cancel() }
        watchdog?.cancel()
        listener?.close(promise: nil)
        // What the testees started and left behind goes with the case.
        for testee in testees where testee.exit != nil { testee.process?.signalGroup(SIGKILL) }
        for channel in connections.values { channel.close(promise: nil) }
        for testee in testees {
            testee.pipes?.close(promise: nil)
            testee.errors?.close(promise: nil)
        }
        outcome.succeed(ClientCaseOutcome(observation: server.observation, transcript: transcript.entries, problem: problem,
                                          held: max(held, server.observation.behindScript)))
    }

    /// What the testee said last on its standard error (`LastWords`), or "".
    private var lastWords: String {
        LastWords.of(String(decoding: standardError.tail, as: UTF8.self))
    }
}

/// Passes the bytes a client writes to its driver's transcript, then on to the frame decoder.
final class ScriptedConnectionRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let driver: NIOLoopBound<ClientCaseDriver>
    var index: Int?

    init(driver: NIOLoopBound<ClientCaseDriver>) {
        self.driver = driver
    }

    func channelActive(context: ChannelHandlerContext) {
        index = driver.value.accepted(context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if let index { driver.value.read(Array(buffer.readableBytesView), on: index) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let index { driver.value.closed(index) }
        context.fireChannelInactive()
    }
}

/// Passes a client's frames and protocol errors to the driver.
final class ScriptedConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = Frame

    private let driver: NIOLoopBound<ClientCaseDriver>

    init(driver: NIOLoopBound<ClientCaseDriver>) {
        self.driver = driver
    }

    private func index(_ context: ChannelHandlerContext) -> Int? {
        (try? context.pipeline.syncOperations.handler(type: ScriptedConnectionRecorder.self))?.index
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let index = index(context) else { return }
        driver.value.received(unwrapInboundIn(data), on: index)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? WireError, let index = index(context) {
            driver.value.failed(error, on: index)
        } else if case ByteToMessageDecoderError.dataReceivedInErrorState = error {
            // Bytes after a protocol error: the server already answered it (an ERROR, a close);
            // closing here would be the suite's close, which the transcript would give the client.
            return
        } else {
            context.close(promise: nil)
        }
    }
}
