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
///
/// In a session (`keepsTestee`, for fuzzing, AFLNet-style) the testee outlives its case: once the
/// script is done and the client shows it has said all it will about the case (the sentinel
/// acknowledged and reported delivered on the connection it kept, or a new connection's handshake
/// reported after it closed), the case is judged and the connection parked; `next` runs the next
/// case on it, past its handshake. Whatever else happens (a timeout, an exit, a sign missing for
/// too long), the case ends as every case does, with the testee stopped and its output read to the
/// end, and the session with it.
final class ClientCaseDriver {
    private var testCase: ClientCase
    private let settings: ClientRunSettings
    private let pcap: NIOWritePCAPHandler.SynchronizedFileSink?
    private let eventLoop: EventLoop
    private var outcome: EventLoopPromise<ClientCaseOutcome>?
    private var server: ScriptedServer
    private var started = NIODeadline.now()

    private var listener: Channel?
    private var port = 0
    /// Open connections by link (numbered from 0 in the order they were accepted, for as long as
    /// the driver lives), and the case's connection index of each link and the reverse.
    private var connections: [Int: Channel] = [:]
    private var indexOfLink: [Int: Int] = [:]
    private var linkOfIndex: [Int: Int] = [:]
    private var nextLink = 0
    private var timers: [Int: Scheduled<Void>] = [:]
    private lazy var testees = ClientTestees(eventLoop: eventLoop, driver: bound)
    private var transcript = BoundedTranscript()
    private var ending = false
    private var done = false
    private var problem: String?

    /// Whether the testee may be kept for another case once this one is judged.
    private let keepsTestee: Bool
    /// The case's number in the session (from 0): its sentinel and time limit are its own.
    private var turn = 0
    /// Whether the script is done and the case waits for the client's sign that it has said all.
    private var settling = false
    /// The connection parked between two cases of a session, and what the next case takes over.
    private var parked: (link: Int, handoff: ScriptedServer.Handoff)?
    /// What the client did between two cases of a session, given to the next one.
    private var between: [(link: Int, frame: Frame)] = []
    private var linesBetween: [String] = []
    /// The settings the client said it uses in its `ready` line, for the session's later cases.
    private var clientSettings: ClientSettings?
    /// Where the testee's standard error stood when the case began: a case's last words are its own.
    private var errorsBefore = 0
    /// How late the event loop ran: the suite's own clock is only as good as this.
    private let watchdog: LoopWatchdog

    /// A reported line is kept in the transcript up to this many bytes.
    private static let transcriptWriteLimit = 65_536
    /// The testee's standard error is kept in the transcript up to this many bytes, its last.
    private static let noteLimit = 2048

    /// How long a session's case waits, once its script is done, for the client's sign that it has
    /// said all about it, beyond its longest reconnect wait: then the case ends as any does.
    static let settleLimit = Duration.seconds(3)
    /// The most cases a session runs with one testee process (each has a sentinel of its own).
    static let turnLimit = 4096
    /// The most lines a testee may print, and frames it may send, between two cases of a session.
    private static let linesBetweenLimit = 64

    init(testCase: ClientCase, settings: ClientRunSettings, pcap: NIOWritePCAPHandler.SynchronizedFileSink? = nil, eventLoop: EventLoop,
         outcome: EventLoopPromise<ClientCaseOutcome>, keepsTestee: Bool = false) {
        self.testCase = testCase
        self.settings = settings
        self.pcap = pcap
        self.eventLoop = eventLoop
        self.outcome = outcome
        self.keepsTestee = keepsTestee
        watchdog = LoopWatchdog(eventLoop: eventLoop)
        server = ScriptedServer(script: testCase.script, settings: testCase.suggested)
    }

    /// The longest line the testee may print now: one the case under way may need.
    var lineLimit: Int { testCase.longestLine }

    /// Whether the session can run another case on its testee: it is running, and its connection
    /// is parked.
    var isParked: Bool { !done && parked != nil && outcome == nil }

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
        let suggested = testCase.suggested.environment(host: "127.0.0.1", port: port, caseID: testCase.id, heartbeats: testCase.heartbeats)
        let environment = TesteeLaunch.environment(suggested.merging(settings.environment) { $1 })
        let input = testCase.messages.map { $0.line + "\n" }.joined()
        let failures = testees.start(settings.command, environment: environment, count: testCase.instances, input: input, endsInput: testCase.endsInput)
        for (instance, reason) in failures.sorted(by: { $0.key < $1.key }) { server.exited(instance: instance, .cannotStart(reason)) }
        if testees.allDone { begin(ending: false) }
    }

    private func scheduleTimeLimit() {
        let limit = testCase.timeLimit(for: server.observation.settings)
        let elapsed = now.elapsed
        guard elapsed < limit else { return begin(ending: true) }
        let turn = turn
        eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limit - elapsed)) { [self] in
            if !ending, turn == self.turn, outcome != nil { scheduleTimeLimit() }
        }
    }

    // MARK: - Events

    /// A connection was accepted: its link, or nil when it is closed at once (the driver is done).
    func accepted(_ channel: Channel) -> Int? {
        guard !done, outcome != nil else {
            channel.close(promise: nil)
            // A connection between two cases of a session is not one the next case expects.
            if !done { retire() }
            return nil
        }
        let link = nextLink
        nextLink += 1
        let (index, actions) = server.accepted(at: now)
        connections[link] = channel
        indexOfLink[link] = index
        linkOfIndex[index] = link
        perform(actions)
        return link
    }

    func read(_ bytes: [UInt8], on link: Int) {
        guard let index = indexOfLink[link], outcome != nil else { return }
        record(TranscriptEntry(direction: .received, time: now.elapsed, bytes: bytes, connection: index))
    }

    func received(_ frame: Frame, on link: Int) {
        guard outcome != nil else {
            if link == parked?.link { between.append((link, frame)) }
            if between.count > Self.linesBetweenLimit { retire() }
            return
        }
        guard let index = indexOfLink[link] else { return }
        perform(server.received(frame, on: index, at: now))
    }

    func failed(_ error: WireError, on link: Int) {
        guard outcome != nil else { return retire() }
        guard let index = indexOfLink[link] else { return }
        perform(server.failed(error, on: index, at: now))
    }

    func closed(_ link: Int) {
        let byClient = connections.removeValue(forKey: link) != nil
        guard outcome != nil else {
            if byClient { retire() }
            return
        }
        guard let index = indexOfLink[link] else { return }
        if byClient { note("the client closed connection \(index + 1)", connection: index) }
        perform(server.closed(index, at: now))
    }

    func line(_ text: String, from instance: Int) {
        guard !done else { return }
        guard outcome != nil else {
            linesBetween.append(text)
            if linesBetween.count > Self.linesBetweenLimit { retire() }
            return
        }
        record(TranscriptEntry(direction: .reported, time: now.elapsed, bytes: Array(text.utf8.prefix(Self.transcriptWriteLimit)), connection: nil))
        guard let event = ClientTesteeEvent(line: text, defaults: testCase.suggested) else {
            // A testee that prints what is not an event cannot be understood: the case ends now.
            server.garbled(text)
            return begin(ending: false)
        }
        if case let .ready(settings) = event { clientSettings = settings }
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
        guard outcome != nil else { return retire() }
        server.garbled("a line longer than \(testCase.longestLine) bytes, longer than any event of this case")
    }

    func outputClosed(_ instance: Int) {
        if testees.outputClosed(instance) { checkTestees() }
    }

    func exited(_ instance: Int, _ exit: ClientObservation.Exit) {
        guard let seen = testees.exited(instance, exit) else { return }
        guard outcome != nil else { return retire() }
        note(testees.count > 1 ? "testee \(instance + 1) \(Self.describe(seen))" : "the testee \(Self.describe(seen))")
        server.exited(instance: instance, seen)
        checkTestees()
    }

    func outputArrived(_ instance: Int) {
        testees.outputArrived(instance)
    }

    private func checkTestees() {
        guard testees.allDone else { return }
        guard outcome != nil else { return retire() }
        if ending { complete() } else { begin(ending: false) }
    }

    // MARK: - Actions

    private func perform(_ actions: [ScriptedServerAction]) {
        for action in actions {
            switch action {
            case let .write(index, bytes, label):
                guard let channel = channel(index) else { continue }
                record(TranscriptEntry(direction: .sent, time: now.elapsed, bytes: bytes, label: label, connection: index))
                channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
            case let .close(index):
                guard let channel = removeChannel(index) else { continue }
                note("the server's script closed connection \(index + 1)", connection: index)
                channel.close(promise: nil)
            case let .reset(index):
                guard let channel = removeChannel(index) else { continue }
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
                scriptFinished()
            }
        }
        if settling { settleIfSaid() }
    }

    /// The open connection of the case's connection `index`.
    private func channel(_ index: Int) -> Channel? {
        linkOfIndex[index].flatMap { connections[$0] }
    }

    private func removeChannel(_ index: Int) -> Channel? {
        linkOfIndex[index].flatMap { connections.removeValue(forKey: $0) }
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

    // MARK: - A session's cases

    /// The script is done: the case ends, or in a session waits for the client to have said all.
    private func scriptFinished() {
        guard keepsTestee, !ending, !settling, !testees.allDone, turn + 1 < Self.turnLimit, problem == nil, server.observation.garbage == nil else {
            return begin(ending: false)
        }
        settling = true
        let limit = server.observation.settings.reconnectMax + Self.settleLimit
        let turn = turn
        eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limit)) { [self] in
            if settling, turn == self.turn { begin(ending: false) }
        }
    }

    /// Judges the case with the testee still running, when the client has said all about it: the
    /// sentinel acknowledged and delivered on the connection it kept, or a handshake reported on a
    /// connection it opened since, every other one closed.
    private func settleIfSaid() {
        let observation = server.observation
        guard !ending, let index = observation.connections.indices.last, server.isReady(index),
              connections.count == 1, channel(index) != nil else { return }
        let connection = observation.connections[index]
        let said = if !connection.acks(of: testCase.sentinel).isEmpty {
            observation.reports.contains { $0.event == .delivered(payload: ClientCase.sentinelPayload) }
        } else {
            index > 0 && observation.reports.contains { $0.event.name == "handshake" && $0.time >= connection.opened }
        }
        guard said, let link = linkOfIndex[index], let handoff = server.handOff(index) else { return }
        settling = false
        server.end(at: now, timedOut: false, lastWords: lastWords)
        for timer in timers.values { timer.cancel() }
        timers = [:]
        parked = (link, handoff)
        let outcome = outcome
        self.outcome = nil
        outcome?.succeed(caseOutcome)
    }

    /// Runs `testCase` on the parked connection, past its handshake; false when the session cannot
    /// (its testee is gone, or nothing is parked).
    func next(_ testCase: ClientCase, outcome: EventLoopPromise<ClientCaseOutcome>) -> Bool {
        guard isParked, let (link, handoff) = parked, !handoff.isFull else { return false }
        parked = nil
        self.testCase = testCase
        self.outcome = outcome
        turn += 1
        started = .now()
        transcript = BoundedTranscript()
        errorsBefore = testees.standardError.total
        server = ScriptedServer(script: testCase.script, settings: clientSettings ?? testCase.suggested, after: handoff)
        indexOfLink = [link: 0]
        linkOfIndex = [0: link]
        perform(server.start(at: now))
        perform(server.adopt(handoff, at: now))
        for text in linesBetween { line(text, from: 0) }
        for (link, frame) in between { received(frame, on: link) }
        linesBetween = []
        between = []
        scheduleTimeLimit()
        return true
    }

    /// Ends the session between two cases: the testee is stopped, and nothing waits for it.
    func retire() {
        guard !done else { return }
        done = true
        parked = nil
        testees.endInput()
        testees.interrupt()
        shutDown()
        eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { [self] in testees.release() }
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
        guard outcome != nil else { return retire() }
        ending = true
        testees.interrupt()
        complete()
    }

    private func complete() {
        guard !done else { return }
        done = true
        server.end(at: now, timedOut: false, lastWords: lastWords)
        server.closingAll(at: now)
        for index in linkOfIndex.keys.sorted() where channel(index) != nil { note("the suite closed connection \(index + 1) at the case's end", connection: index) }
        let written = caseErrors
        if written.total > 0 {
            let kept = written.tail.suffix(Self.noteLimit)
            note("the testee's standard error, its last \(kept.count) of \(written.total) bytes: " + String(decoding: kept, as: UTF8.self))
        }
        shutDown()
        testees.release()
        outcome?.succeed(caseOutcome)
    }

    /// The timers, the watchdog, the listener and the connections stop: the driver is done.
    private func shutDown() {
        for timer in timers.values { timer.cancel() }
        watchdog.stop()
        listener?.close(promise: nil)
        for channel in connections.values { channel.close(promise: nil) }
    }

    /// What the judge gets of the case under way.
    private var caseOutcome: ClientCaseOutcome {
        ClientCaseOutcome(observation: server.observation, transcript: transcript.entries, problem: problem,
                          held: max(watchdog.held, server.observation.behindScript))
    }

    /// What the testee wrote on its standard error since the case began: how many bytes, and the
    /// last of them that are kept.
    private var caseErrors: (total: Int, tail: ArraySlice<UInt8>) {
        let error = testees.standardError
        let total = max(0, error.total - errorsBefore)
        return (total, error.tail.suffix(total))
    }

    /// What the testee said last on its standard error in this case (`LastWords`), or "".
    private var lastWords: String {
        LastWords.of(String(decoding: caseErrors.tail, as: UTF8.self))
    }
}
