import DecafConformance
import DecafNIO
import DecafSession
import DecafWire
import NIOCore
import NIOEmbedded
#if canImport(Glibc)
import Glibc
#endif

/// One client case judged against the reference client in memory: the case's `ScriptedServer`
/// and the client testee `decaf testee client` would be (`ReferenceClientTestee`: its
/// `ClientSession` with the same configuration, faults and codec handlers, reporting the same
/// lines), joined by connections in memory and run on a virtual clock, as `ClientCaseDriver` runs
/// them on loopback: the server's timers and writes, the client's timers, connects, sends and
/// closes, the case's time limit, the end of the testee's input, and the testee stopped when it
/// does not exit. The verdict is `ClientJudge`'s on what the server observed. A case that waits
/// minutes for a reconnect takes none here, so the suite's mutation coverage (`ClientTargets`)
/// is computed this way.
public struct SimulatedClientCase {
    private let testCase: ClientCase
    private let testee: ReferenceClientTestee

    /// `testCase` against the reference client set up as `testee` says.
    public init(_ testCase: ClientCase, against testee: ReferenceClientTestee) {
        self.testCase = testCase
        self.testee = testee
    }

    /// The case's verdict.
    public func verdict() throws -> Verdict {
        try ClientCaseSimulation(testCase: testCase, testee: testee).run()
    }
}

/// The state of one simulated run: an event queue on a virtual clock, the scripted server, the
/// testee's sessions and the connections between them.
private final class ClientCaseSimulation {
    /// A run that has not ended after this many events is a client or a script looping in no
    /// time: a harness error, never a verdict.
    static let eventLimit = 2_000_000
    /// How long a connection attempt takes to be accepted or refused.
    static let connectTime = Duration.milliseconds(1)
    /// What the suite waits for testees to exit after a case's end before it stops them.
    static let exitGrace = Duration.milliseconds(1500)
    /// How long the end of a testee's input takes to reach it: a close it makes on reading it
    /// comes after the case's end, as a process's does.
    static let pipeDelay = Duration.milliseconds(1)

    private enum Event {
        case serverTimer(Int)
        case clientTimer(instance: Int, ClientTimer, id: Int)
        case toServer(connection: Int, [UInt8])
        case toClient(connection: Int, [UInt8])
        /// The server's close reaches the client.
        case closedByServer(connection: Int)
        /// The client's close (or its process's death) reaches the server.
        case closedByClient(connection: Int)
        /// The client's channel is gone: its session hears of the loss, unless it connected again.
        case lost(connection: Int)
        case connect(instance: Int)
        /// The listener opens again after refusing connections.
        case listen
        /// The end of the testee's standard input reaches it.
        case endInput(instance: Int)
        case timeLimit
        case stopTestees
    }

    /// One testee process: its session, its timers and the messages it was told to send.
    private struct Testee {
        var session: ClientSession
        var random: SeededRandom
        var timers: [ClientTimer: Int] = [:]
        var names: [Int: String] = [:]
        var connection: Int?
        var inputEnded = false
        var exit: ClientObservation.Exit?
        var standardError = ""
    }

    /// One connection: the client's codec (the testee's own handlers) and the server's decoder.
    private struct Connection {
        let instance: Int
        let client: EmbeddedChannel
        let clientEvents: WireEventCollector
        let server: EmbeddedChannel
        let serverEvents: WireEventCollector
        var clientOpen = true
        var serverOpen = true
    }

    private let testCase: ClientCase
    private var server: ScriptedServer
    private var testees: [Testee] = []
    private var ready: ClientSettings
    private var connections: [Int: Connection] = [:]
    private var queue: [(time: Duration, order: Int, event: Event)] = []
    private var order = 0
    private var elapsed = Duration.zero
    private var nextTimer = 0
    private var listening = true
    private var ending = false
    private var verdict: Verdict?

    init(testCase: ClientCase, testee: ReferenceClientTestee) {
        self.testCase = testCase
        server = ScriptedServer(script: testCase.script, settings: testCase.suggested)
        var problem: String?
        let environment = testCase.suggested.environment(host: "127.0.0.1", port: 1, caseID: testCase.id, heartbeats: testCase.heartbeats)
        let (configuration, ready) = testee.configuration(for: ClientSettings(environment: environment, problem: &problem))
        self.ready = ready
        testees = (0..<testCase.instances).map { instance in
            Testee(session: ClientSession(configuration: configuration), random: SeededRandom(seed: UInt64(instance) &+ 0x5EED))
        }
    }

    private var now: SessionTime {
        SessionTime(elapsed: elapsed, unixSeconds: CaseFrames.timestamp &+ UInt32(clamping: elapsed.components.seconds))
    }

    func run() throws -> Verdict {
        perform(server.start(at: now))
        for instance in testees.indices {
            // The testee's first line, read back as the suite reads it.
            report(ClientTesteeEvent.ready(ready).line, from: instance)
            perform(testees[instance].session.start(at: now), of: instance)
            for message in testCase.messages {
                let number = testees[instance].names.count + 1
                testees[instance].names[number] = message.id
                perform(testees[instance].session.submit(ClientMessage(id: number, payload: message.payload), at: now), of: instance)
            }
            if testCase.endsInput { endInput(of: instance) }
        }
        schedule(.timeLimit, after: .zero)
        var events = 0
        while verdict == nil {
            guard !queue.isEmpty else { complete(); break }
            events += 1
            guard events < Self.eventLimit else {
                return Verdict(.harnessError, "the simulated run of \(testCase.id) did not end after \(Self.eventLimit) events")
            }
            let next = queue.removeFirst()
            elapsed = max(elapsed, next.time)
            handle(next.event)
        }
        for connection in connections.values {
            _ = try? connection.client.finish()
            _ = try? connection.server.finish()
        }
        return verdict ?? Verdict(.harnessError, "the simulated run of \(testCase.id) ended without a verdict")
    }

    // MARK: - The event queue

    private func schedule(_ event: Event, after delay: Duration) {
        let time = elapsed + max(delay, .zero)
        order += 1
        let index = queue.firstIndex { $0.time > time } ?? queue.endIndex
        queue.insert((time, order, event), at: index)
    }

    private func handle(_ event: Event) {
        switch event {
        case let .serverTimer(token):
            perform(server.timerFired(token, at: now))
        case let .clientTimer(instance, timer, id):
            guard testees[instance].exit == nil, testees[instance].timers[timer] == id else { return }
            testees[instance].timers[timer] = nil
            perform(randomly(instance) { $0.timerFired(timer, at: now, random: &$1) }, of: instance)
        case let .toServer(index, bytes):
            guard let connection = connections[index], connection.serverOpen else { return }
            _ = try? connection.server.writeInbound(connection.server.allocator.buffer(bytes: bytes))
            serverRead(index)
        case let .toClient(index, bytes):
            guard let connection = connections[index], connection.clientOpen else { return }
            _ = try? connection.client.writeInbound(connection.client.allocator.buffer(bytes: bytes))
            clientRead(index)
        case let .closedByServer(index):
            guard let connection = connections[index], connection.clientOpen else { return }
            // The stream's end: the decoder judges what is left, then the session hears of the loss.
            connection.client.pipeline.fireChannelInactive()
            clientRead(index)
            guard connections[index]?.clientOpen == true else { return }
            clientClosed(index)
        case let .lost(index):
            guard let instance = connections[index]?.instance, testees[instance].connection == index, testees[instance].exit == nil else { return }
            perform(randomly(instance) { $0.connectionLost(at: now, random: &$1) }, of: instance)
        case let .closedByClient(index):
            guard let connection = connections[index], connection.serverOpen else { return }
            connections[index]?.serverOpen = false
            perform(server.closed(index, at: now))
        case let .connect(instance):
            connect(instance)
        case .listen:
            listening = true
        case let .endInput(instance):
            endInput(of: instance)
        case .timeLimit:
            guard !ending else { return }
            let limit = testCase.timeLimit(for: server.observation.settings)
            if elapsed >= limit { begin(timedOut: true) } else { schedule(.timeLimit, after: limit - elapsed) }
        case .stopTestees:
            for instance in testees.indices where testees[instance].exit == nil { exited(instance, .stopped) }
            complete()
        }
    }

    // MARK: - The server

    private func perform(_ actions: [ScriptedServerAction]) {
        for action in actions {
            switch action {
            case let .write(index, bytes, _):
                guard connections[index]?.serverOpen == true else { continue }
                schedule(.toClient(connection: index, bytes), after: .zero)
            case let .close(index), let .reset(index):
                guard connections[index]?.serverOpen == true else { continue }
                connections[index]?.serverOpen = false
                perform(server.closed(index, at: now))
                schedule(.closedByServer(connection: index), after: .zero)
            case let .schedule(token, delay):
                schedule(.serverTimer(token), after: delay)
            case let .refuseConnections(duration):
                listening = false
                schedule(.listen, after: duration)
            case .finish:
                begin(timedOut: false)
            }
        }
    }

    private func serverRead(_ index: Int) {
        guard let connection = connections[index] else { return }
        for event in connection.serverEvents.take() {
            switch event {
            case let .frame(frame): perform(server.received(frame, on: index, at: now))
            case let .error(error): perform(server.failed(error, on: index, at: now))
            case .closed: break
            }
        }
    }

    // MARK: - The testees

    private func perform(_ actions: [ClientAction], of instance: Int) {
        for action in actions {
            guard testees[instance].exit == nil else { return }
            switch action {
            case .connect:
                // An attempt takes a round trip, as over loopback: a client that tries again at once
                // hammers at that pace rather than looping in no time.
                schedule(.connect(instance: instance), after: Self.connectTime)
            case let .send(frame):
                guard let index = testees[instance].connection, let connection = connections[index], connection.clientOpen else { continue }
                _ = try? connection.client.writeOutbound(frame)
                while let buffer = try? connection.client.readOutbound(as: ByteBuffer.self) {
                    schedule(.toServer(connection: index, Array(buffer.readableBytesView)), after: .zero)
                }
            case .close:
                guard let index = testees[instance].connection, connections[index]?.clientOpen == true else { continue }
                clientClosed(index)
            case let .schedule(timer, delay):
                nextTimer += 1
                testees[instance].timers[timer] = nextTimer
                schedule(.clientTimer(instance: instance, timer, id: nextTimer), after: delay)
            case let .cancel(timer):
                testees[instance].timers[timer] = nil
            case let .report(event):
                let names = testees[instance].names
                if let reported = ClientTesteeEvent(event, name: { names[$0] ?? String($0) }) { report(reported.line, from: instance) }
                if event == .finished { exited(instance, .status(0)) }
            case let .abort(reason):
                testees[instance].standardError += "Fatal error: planted fault: \(reason)\n"
                exited(instance, .signal(SIGILL))
            case let .exit(status, saying):
                testees[instance].standardError += saying + "\n"
                exited(instance, .status(status))
            }
        }
    }

    /// What testee `instance`'s session does on an event that takes randomness (a backoff's jitter).
    private func randomly(_ instance: Int, _ body: (inout ClientSession, inout SeededRandom) -> [ClientAction]) -> [ClientAction] {
        var random = testees[instance].random
        defer { testees[instance].random = random }
        return body(&testees[instance].session, &random)
    }

    private func report(_ line: String, from instance: Int) {
        guard let event = ClientTesteeEvent(line: line, defaults: testCase.suggested) else { return }
        perform(server.reported(event, instance: instance, at: now))
    }

    private func connect(_ instance: Int) {
        guard testees[instance].exit == nil, verdict == nil else { return }
        guard listening else {
            perform(randomly(instance) { $0.connectFailed(at: now, random: &$1) }, of: instance)
            return
        }
        let clientEvents = WireEventCollector()
        let client = EmbeddedChannel()
        let serverEvents = WireEventCollector()
        let server = EmbeddedChannel()
        do {
            try ClientConnection.addCodecHandlers(to: client.pipeline.syncOperations, configuration: testees[instance].session.configuration,
                                                  now: { [unowned self] in now.unixSeconds })
            try client.pipeline.syncOperations.addHandler(clientEvents)
            try server.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoderHandler()))
            try server.pipeline.syncOperations.addHandler(serverEvents)
            try client.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            try server.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2)).wait()
        } catch {
            verdict = Verdict(.harnessError, "the simulated connection could not be set up: \(error)")
            return
        }
        let (index, actions) = self.server.accepted(at: now)
        connections[index] = Connection(instance: instance, client: client, clientEvents: clientEvents, server: server, serverEvents: serverEvents)
        testees[instance].connection = index
        perform(actions)
        perform(testees[instance].session.connected(at: now), of: instance)
    }

    private func clientRead(_ index: Int) {
        guard let connection = connections[index] else { return }
        let instance = connection.instance
        for event in connection.clientEvents.take() {
            guard connections[index]?.clientOpen == true, testees[instance].exit == nil else { return }
            switch event {
            case let .frame(frame): perform(testees[instance].session.received(frame, at: now), of: instance)
            case let .error(error): perform(testees[instance].session.failed(error, at: now), of: instance)
            case .closed: break
            }
        }
    }

    /// The client's side of connection `index` closes: the server hears of it, and the session
    /// once its channel is gone.
    private func clientClosed(_ index: Int) {
        connections[index]?.clientOpen = false
        schedule(.closedByClient(connection: index), after: .zero)
        schedule(.lost(connection: index), after: .zero)
    }

    /// Testee `instance` ended: its connections close with it.
    private func exited(_ instance: Int, _ exit: ClientObservation.Exit) {
        guard testees[instance].exit == nil else { return }
        testees[instance].exit = exit
        for (index, connection) in connections where connection.instance == instance && connection.clientOpen { clientClosed(index) }
        server.exited(instance: instance, exit)
        guard testees.allSatisfy({ $0.exit != nil }) else { return }
        if ending { complete() } else { begin(timedOut: false) }
    }

    /// The testee's standard input ends: it finishes once its messages are settled.
    private func endInput(of instance: Int) {
        guard !testees[instance].inputEnded, testees[instance].exit == nil else { return }
        testees[instance].inputEnded = true
        perform(testees[instance].session.endOfInput(at: now), of: instance)
    }

    // MARK: - The end

    private func begin(timedOut: Bool) {
        guard !ending else { return }
        ending = true
        server.end(at: now, timedOut: timedOut, lastWords: "")
        // A process reads the end of its input a little later; what it does then is after the end.
        for instance in testees.indices { schedule(.endInput(instance: instance), after: Self.pipeDelay) }
        if testees.allSatisfy({ $0.exit != nil }) { return complete() }
        schedule(.stopTestees, after: Self.exitGrace)
    }

    private func complete() {
        guard verdict == nil else { return }
        // What the closes of the testees' connections tell the server arrives before the end.
        while let index = queue.firstIndex(where: { if case .closedByClient = $0.event { $0.time <= elapsed } else { false } }) {
            handle(queue.remove(at: index).event)
        }
        server.end(at: now, timedOut: false, lastWords: LastWords.of(testees.map(\.standardError).joined()))
        server.closingAll(at: now)
        verdict = ClientJudge(testCase: testCase, observation: server.observation).verdict
    }
}

/// The frames and protocol errors a decoder passes on, kept in order for the simulation to take.
private final class WireEventCollector: ChannelInboundHandler {
    typealias InboundIn = Frame

    private var events: [WireEvent] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        events.append(.frame(unwrapInboundIn(data)))
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // Bytes after a protocol error change nothing (the decoder reads no more): only the error counts.
        if let error = error as? WireError { events.append(.error(error)) }
    }

    func take() -> [WireEvent] {
        defer { events = [] }
        return events
    }
}
