import DecafSession
import DecafWire

/// The server side of a client case, as a pure function of what happens and when: every
/// connection is answered by the reference peer's own `PeerSession` (handshake, ACKs, read
/// receipts, repeats, ERROR on bad bytes), bent by the case's `ServerScript` (the order of the
/// handshake's answer, ACKs withheld, delayed or repeated, silence), and runs the script's steps.
/// It records everything in an observation for the judge. A shell carries out the actions; nothing
/// here touches a socket or reads a clock.
public struct ScriptedServer {
    public let script: ServerScript
    public private(set) var observation: ClientObservation
    public private(set) var isFinished = false

    private struct Connection {
        var session: PeerSession
        var script: ConnectionScript
        var open = true
        var silent = false
        /// Whether the steps have begun (after the handshake's answer).
        var started = false
        var cursor = 0
        var wait: ServerStep?
        var paused = false
        /// When the pause under way should end, by the script.
        var resumeDue: Duration?
        /// How much later than the script its pauses have ended, added up: each pause starts when
        /// the last ended, so on a loaded machine the lateness of one carries into every later step.
        var behind: Duration = .zero
        /// Writes left of a transmission cut into several, with the pauses between them.
        var queue: [Pending] = []
        /// Sends of each DATA frame, copies sent within half an ACK timeout of the last send not
        /// counted: a copy is not a resend, and withholding an ACK for a number of sends must
        /// bring the client's real resend, after its timeout.
        var dataSends: [UInt32: Int] = [:]
        var lastDataSend: [UInt32: Duration] = [:]
        var dataOrder: [UInt32] = []
        var dataCount = 0
        var acknowledged: Set<UInt32> = []
    }

    private enum Pending: Hashable {
        case write([UInt8], label: String)
        case pause(Duration)
    }

    private enum Timer {
        case resume(connection: Int)
        case write(connection: Int, bytes: [UInt8], label: String)
    }

    private var connections: [Connection] = []
    /// Repeats remembered across the case's connections, as a server remembers them (REPLAY-1).
    private var replay = PeerConfiguration().makeReplayMemory()
    private var timers: [Int: Timer] = [:]
    private var nextToken = 0
    /// The bytes of the last `send`, on any connection, and its label: what `repeatLast` writes.
    private var lastSent: [UInt8] = []
    private var lastLabel = ""
    /// What the script's sends carried, and what those of the earlier cases of the client's
    /// session carried: a frame with one of them may be a repeat (REPLAY-1).
    private var sent: Set<RepeatKey>
    private let sentBefore: Set<RepeatKey>

    /// A server for `script`; `settings` are the client's until its `ready` line says otherwise.
    public init(script: ServerScript, settings: ClientSettings) {
        self.script = script
        observation = ClientObservation(settings: settings)
        sent = []
        sentBefore = []
    }

    /// A server for `script` that takes over `handoff`'s connection of an earlier case with the
    /// same client (a fuzzing session, AFLNet-style), past its handshake: the connection is
    /// connection 0, and its steps start at once (`adopt`).
    public init(script: ServerScript, settings: ClientSettings, after handoff: Handoff) {
        self.script = script
        observation = ClientObservation(settings: settings)
        observation.priorOffer = handoff.offer
        replay = handoff.replay
        sent = handoff.sent
        sentBefore = handoff.sent
    }

    // MARK: - Events from the shell

    /// The case starts: the listener is open unless the script refuses the first connections.
    public mutating func start(at now: SessionTime) -> [ScriptedServerAction] {
        observation.startedAt = now.unixSeconds
        return script.refusedAtStart.map { [.refuseConnections(for: $0)] } ?? []
    }

    /// A connection was accepted; returns its index and what to do.
    public mutating func accepted(at now: SessionTime) -> (connection: Int, actions: [ScriptedServerAction]) {
        let index = connections.count
        let script = self.script.connection(index)
        var configuration = PeerConfiguration()
        configuration.version = self.script.version
        configuration.features = self.script.features
        // The server's CONTROL counter goes on across the case's connections (SEQ-1 counts per
        // session), so no VERSION_RESPONSE repeats an earlier one's sequence and timestamp.
        let session = PeerSession(configuration: configuration, lastControlSequence: connections.last?.session.lastControlSequence
                                  ?? SequenceNumber(category: .control, counter: self.script.controlCounter))
        var connection = Connection(session: session, script: script)
        connection.started = script.handshake == .unanswered
        connections.append(connection)
        observation.connections.append(ClientObservation.Connection(opened: now.elapsed))
        return (index, advanceAll(at: now))
    }

    /// Takes over `handoff`'s connection (this server's `init(script:settings:after:)`): its
    /// handshake was answered in the case that handed it over, so the steps start now.
    public mutating func adopt(_ handoff: Handoff, at now: SessionTime) -> [ScriptedServerAction] {
        var connection = Connection(session: handoff.session, script: script.connection(connections.count))
        connection.started = true
        connections.append(connection)
        observation.connections.append(ClientObservation.Connection(opened: now.elapsed))
        return advanceAll(at: now)
    }

    /// Connection `index`, to be taken over by the next case of a session, once the script is done
    /// and when the connection is open and past its handshake.
    public func handOff(_ index: Int) -> Handoff? {
        guard isFinished, isReady(index) else { return nil }
        return Handoff(session: connections[index].session, replay: replay, offer: ClientJudge.offer(in: observation.frames) ?? observation.priorOffer, sent: sent)
    }

    /// Whether connection `index` is open and its steps have begun (its handshake answered, or
    /// answered in the case that handed it over).
    public func isReady(_ index: Int) -> Bool {
        connections.indices.contains(index) && connections[index].open && connections[index].started
    }

    /// A frame from the client on `connection`.
    public mutating func received(_ frame: Frame, on index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        guard connections.indices.contains(index) else { return [] }
        observation.connections[index].frames.append(ClientObservation.Received(time: now.elapsed, frame: frame))
        let header = frame.header
        switch header.messageType {
        case .ack: connections[index].acknowledged.insert(header.sequence.rawValue)
        case .data:
            let sequence = header.sequence.rawValue
            connections[index].dataCount += 1
            if connections[index].dataSends[sequence, default: 0] == 0 {
                connections[index].dataOrder.append(sequence)
            }
            let last = connections[index].lastDataSend[sequence]
            if last.map({ now.elapsed - $0 >= observation.settings.ackTimeout / 2 }) ?? true {
                connections[index].dataSends[sequence, default: 0] += 1
            }
            connections[index].lastDataSend[sequence] = now.elapsed
        default: break
        }
        var actions: [ScriptedServerAction] = []
        if connections[index].open && !connections[index].silent {
            let replies = connections[index].session.receive(frame, now: now.unixSeconds, replay: &replay)
            actions = answer(frame, with: replies, on: index, at: now)
        }
        return actions + advanceAll(at: now)
    }

    /// The client's bytes on `connection` broke the protocol: the peer's ERROR and close (EX-5).
    public mutating func failed(_ error: WireError, on index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        guard connections.indices.contains(index), observation.connections[index].clientError == nil else { return [] }
        observation.connections[index].clientError = error
        observation.connections[index].clientErrorTime = now.elapsed
        guard connections[index].open else { return [] }
        let replies = perform(connections[index].session.fail(error, now: now.unixSeconds), on: index, at: now)
        // Bytes that break the protocol fail the case whatever it is about (the judge's screen), so
        // the case ends here rather than running to its limit. A frame cut short may be the
        // client still writing it, and waits for the rest.
        guard error.code != .truncatedFrame, !isFinished else { return replies }
        isFinished = true
        observation.ended = now.elapsed
        return replies + [.finish]
    }

    /// The connection closed, by the client or because it broke.
    public mutating func closed(_ index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        guard connections.indices.contains(index) else { return [] }
        connections[index].open = false
        if observation.connections[index].closed == nil {
            observation.connections[index].closed = now.elapsed
            observation.connections[index].closedBy = .client
        }
        return advanceAll(at: now)
    }

    /// The suite closes every connection still open, at the case's end: their closes are its own.
    public mutating func closingAll(at now: SessionTime) {
        for index in connections.indices where observation.connections[index].closed == nil {
            connections[index].open = false
            observation.connections[index].closed = now.elapsed
            observation.connections[index].closedBy = .suite
        }
    }

    /// A timer the server scheduled ran out.
    public mutating func timerFired(_ token: Int, at now: SessionTime) -> [ScriptedServerAction] {
        guard let timer = timers.removeValue(forKey: token) else { return [] }
        switch timer {
        case let .resume(index):
            connections[index].paused = false
            if let due = connections[index].resumeDue {
                connections[index].behind += max(.zero, now.elapsed - due)
                connections[index].resumeDue = nil
                observation.behindScript = max(observation.behindScript, connections[index].behind)
            }
            return advanceAll(at: now)
        case let .write(index, bytes, label):
            guard connections[index].open else { return [] }
            return emit(bytes, label: label, on: index, at: now)
        }
    }

    /// A line from testee `instance`.
    public mutating func reported(_ event: ClientTesteeEvent, instance: Int, at now: SessionTime) -> [ScriptedServerAction] {
        if case let .ready(settings) = event, !observation.reports.contains(where: { $0.event.name == "ready" }) {
            observation.settings = settings
        }
        observation.reports.append(ClientObservation.Report(time: now.elapsed, instance: instance, event: event))
        return advanceAll(at: now)
    }

    /// A testee wrote a line that is not an event.
    public mutating func garbled(_ line: String) {
        if observation.garbage == nil { observation.garbage = String(line.prefix(200)) }
    }

    /// Testee `instance` ended.
    public mutating func exited(instance: Int, _ exit: ClientObservation.Exit) {
        while observation.exits.count <= instance { observation.exits.append(nil) }
        observation.exits[instance] = exit
    }

    /// The case ends now; `timedOut` when its time ran out first.
    public mutating func end(at now: SessionTime, timedOut: Bool, lastWords: String) {
        if observation.ended == nil {
            observation.ended = now.elapsed
            observation.waitingFor = waitingFor
        }
        observation.timedOut = observation.timedOut || timedOut
        observation.lastWords = lastWords
        isFinished = true
    }

    /// What the script was waiting for when the case ended before it finished, in words.
    private var waitingFor: String? {
        guard !isFinished else { return nil }
        guard let index = connections.indices.last(where: { connections[$0].open }) ?? connections.indices.last else { return "the client to connect" }
        let connection = connections[index]
        let on = connections.count > 1 ? " on connection \(index + 1)" : ""
        guard connection.started else { return "the client's VERSION_REQUEST\(on)" }
        return connection.wait?.awaited.map { $0 + on }
    }

    // MARK: - Answers

    /// Carries out the peer's replies to `frame`, bent by the connection's script.
    private mutating func answer(_ frame: Frame, with replies: [PeerAction], on index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        let response = replies.firstIndex { action in
            guard case let .send(outgoing, _) = action else { return false }
            return outgoing.header.messageType == .control && TLVSequence(outgoing.payload).contains { $0.tag == .versionResponse }
        }
        if let response { return handshake(replies, response: response, on: index, at: now) }
        var actions: [ScriptedServerAction] = []
        let policy = connections[index].script.acks
        for reply in replies {
            guard case let .send(outgoing, delay) = reply else {
                if case .close = reply { actions += close(index, reset: false, at: now) }
                continue
            }
            guard outgoing.header.messageType == .ack else {
                actions += send(outgoing, after: delay, on: index, at: now)
                continue
            }
            switch frame.header.messageType {
            case .heartbeat where !policy.heartbeats:
                continue
            case .data:
                actions += acknowledgeData(outgoing, sequence: frame.header.sequence, on: index, at: now)
            default:
                actions += send(outgoing, after: delay, on: index, at: now)
            }
        }
        return actions
    }

    /// The ACK of a DATA frame, withheld, delayed or repeated as the script says (EX-7).
    private mutating func acknowledgeData(_ ack: OutgoingFrame, sequence: SequenceNumber, on index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        let connection = connections[index]
        let policy = connection.script.acks
        let position = (connection.dataOrder.firstIndex(of: sequence.rawValue) ?? 0) + 1
        let sends = connection.dataSends[sequence.rawValue, default: 1]
        if policy.onlyMessage == nil || policy.onlyMessage == position, sends <= policy.withheldSends { return [] }
        let delay = observation.settings.ackTimeout * policy.delayInAckTimeouts
        var actions = send(ack, after: delay, on: index, at: now)
        for repeatIndex in 0..<policy.duplicates {
            actions += send(ack, after: delay + .milliseconds(20 * (repeatIndex + 1)), on: index, at: now, label: "late " + Self.label(ack))
        }
        return actions
    }

    /// The ACK and VERSION_RESPONSE in the order and cut the script gives them (HS-2); the steps
    /// start once they are out.
    private mutating func handshake(_ replies: [PeerAction], response: Int, on index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        var frames: [OutgoingFrame] = []
        var closes = false
        for reply in replies {
            switch reply {
            case let .send(outgoing, _): frames.append(outgoing)
            case .close: closes = true
            case .deliver, .abort: continue
            }
        }
        guard case let .send(responseFrame, _) = replies[response] else { return [] }
        let acks = frames.filter { $0.header.messageType == .ack }
        var actions: [ScriptedServerAction] = []
        switch connections[index].script.handshake {
        case .unanswered:
            return []
        case .ackFirst:
            actions = acks.flatMap { emit(Self.encode($0), label: Self.label($0), on: index, at: now) }
            actions += emit(Self.encode(responseFrame), label: Self.label(responseFrame), on: index, at: now)
        case let .late(pause):
            actions = acks.flatMap { emit(Self.encode($0), label: Self.label($0), on: index, at: now) }
            actions += send(responseFrame, after: pause, on: index, at: now)
        case let .responseFirst(pause):
            actions += emit(Self.encode(responseFrame), label: Self.label(responseFrame), on: index, at: now)
            for ack in acks { actions += send(ack, after: pause, on: index, at: now) }
        case .together:
            let bytes = Self.encode(responseFrame) + acks.flatMap(Self.encode)
            actions += emit(bytes, label: ([responseFrame] + acks).map(Self.label).joined(separator: " + "), on: index, at: now)
        case .bytewise:
            let bytes = acks.flatMap(Self.encode) + Self.encode(responseFrame)
            let label = (acks + [responseFrame]).map(Self.label).joined(separator: " + ")
            for (offset, byte) in bytes.enumerated() {
                if offset > 0 { connections[index].queue.append(.pause(.milliseconds(1))) }
                connections[index].queue.append(.write([byte], label: "byte \(offset + 1) of \(bytes.count): \(label)"))
            }
        }
        if observation.connections[index].answered == nil {
            observation.connections[index].answered = now.elapsed
            observation.connections[index].responseSequence = responseFrame.header.sequence
        }
        if closes {
            actions += close(index, reset: false, at: now)
        } else {
            connections[index].started = true
        }
        return actions
    }

    // MARK: - Steps

    private mutating func advanceAll(at now: SessionTime) -> [ScriptedServerAction] {
        var actions: [ScriptedServerAction] = []
        for index in connections.indices { actions += advance(index, at: now) }
        return actions
    }

    /// Runs connection `index`'s script until a step waits.
    private mutating func advance(_ index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        var actions: [ScriptedServerAction] = []
        while !isFinished, !connections[index].paused {
            if !connections[index].open { connections[index].queue.removeAll() }
            if !connections[index].queue.isEmpty {
                switch connections[index].queue.removeFirst() {
                case let .write(bytes, label): actions.append(write(bytes, label: label, on: index, at: now))
                case let .pause(duration): actions.append(pause(index, for: duration, at: now))
                }
                continue
            }
            if let wait = connections[index].wait {
                guard isSatisfied(wait, on: index) else { break }
                connections[index].wait = nil
            }
            let steps = connections[index].script.steps
            guard connections[index].started, connections[index].cursor < steps.count else { break }
            let step = steps[connections[index].cursor]
            connections[index].cursor += 1
            actions += perform(step, on: index, at: now)
        }
        return actions
    }

    private mutating func perform(_ step: ServerStep, on index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        switch step {
        case let .send(transmission):
            guard connections[index].open else { return [] }
            let bytes = transmission.bytes(at: now.unixSeconds, receiver: observation.settings.version)
            for header in Transmission.headers(in: bytes) {
                let key = RepeatKey(header)
                // Past the limit nothing more is remembered, and any frame may be a repeat.
                if sentBefore.contains(key) || sent.count >= Handoff.frameLimit { observation.mayBeRepeat = true }
                if sent.count < Handoff.frameLimit { sent.insert(key) }
            }
            lastSent = bytes
            lastLabel = transmission.label
            for (number, part) in transmission.writes(of: bytes).enumerated() {
                if number > 0, transmission.pause > .zero { connections[index].queue.append(.pause(transmission.pause)) }
                let label = transmission.split.isEmpty ? transmission.label : Transmission.part(number + 1, of: transmission.label)
                connections[index].queue.append(.write(Array(part), label: label))
            }
            return []
        case .repeatLast:
            connections[index].queue.append(.write(lastSent, label: "again: \(lastLabel)"))
            return []
        case let .pause(duration):
            return [pause(index, for: duration, at: now)]
        case let .pauseAckTimeouts(count):
            return [pause(index, for: observation.settings.ackTimeout * count, at: now)]
        case let .pauseHeartbeats(count):
            return [pause(index, for: (observation.settings.heartbeat ?? .seconds(1)) * count, at: now)]
        case .awaitData, .awaitAck, .awaitEvent, .awaitConnections, .awaitClosed:
            connections[index].wait = step
            return []
        case .close:
            return close(index, reset: false, at: now)
        case .reset:
            return close(index, reset: true, at: now)
        case .goSilent:
            connections[index].silent = true
            return []
        case let .refuseConnections(duration):
            return [.refuseConnections(for: duration)]
        case .finish:
            isFinished = true
            observation.ended = now.elapsed
            return [.finish]
        }
    }

    private func isSatisfied(_ wait: ServerStep, on index: Int) -> Bool {
        switch wait {
        case let .awaitData(count): connections[index].dataCount >= count
        case let .awaitAck(sequence): connections[index].acknowledged.contains(sequence.rawValue)
        case let .awaitEvent(name): observation.reports.contains { $0.event.name == name }
        case let .awaitConnections(count): connections.count >= count
        case .awaitClosed: !connections[index].open
        default: true
        }
    }

    // MARK: - Output

    private mutating func perform(_ replies: [PeerAction], on index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        var actions: [ScriptedServerAction] = []
        for reply in replies {
            switch reply {
            case let .send(frame, delay): actions += send(frame, after: delay, on: index, at: now)
            case .close: actions += close(index, reset: false, at: now)
            case .deliver, .abort: continue
            }
        }
        return actions
    }

    private mutating func send(_ frame: OutgoingFrame, after delay: Duration, on index: Int, at now: SessionTime, label: String? = nil) -> [ScriptedServerAction] {
        let label = label ?? Self.label(frame)
        guard delay > .zero else { return emit(Self.encode(frame), label: label, on: index, at: now) }
        return [schedule(.write(connection: index, bytes: Self.encode(frame), label: label), after: delay)]
    }

    /// A frame the server sends now or, while a transmission goes out in parts (a frame written a
    /// byte at a time, a header and then its body), after its last part: a stream cannot carry a
    /// frame in the middle of another. (Over loopback a client that resent its VERSION_REQUEST
    /// during a handshake answer written a byte a millisecond got the ACK of the resend inside it,
    /// and refused the mixed bytes as BODY_TOO_LARGE.)
    private mutating func emit(_ bytes: [UInt8], label: String, on index: Int, at now: SessionTime) -> [ScriptedServerAction] {
        guard connections[index].queue.isEmpty else {
            connections[index].queue.append(.write(bytes, label: label))
            return []
        }
        return [write(bytes, label: label, on: index, at: now)]
    }

    private mutating func write(_ bytes: [UInt8], label: String, on index: Int, at now: SessionTime) -> ScriptedServerAction {
        observation.connections[index].writes.append(
            ClientObservation.Write(time: now.elapsed, label: label, bytes: bytes.count, headers: Transmission.headers(in: bytes)))
        return .write(connection: index, bytes: bytes, label: label)
    }

    private mutating func close(_ index: Int, reset: Bool, at now: SessionTime) -> [ScriptedServerAction] {
        guard connections[index].open else { return [] }
        connections[index].open = false
        observation.connections[index].closedBy = .script
        observation.connections[index].closed = now.elapsed
        return [reset ? .reset(connection: index) : .close(connection: index)]
    }

    private mutating func pause(_ index: Int, for duration: Duration, at now: SessionTime) -> ScriptedServerAction {
        connections[index].paused = true
        connections[index].resumeDue = now.elapsed + duration
        return schedule(.resume(connection: index), after: duration)
    }

    private mutating func schedule(_ timer: Timer, after delay: Duration) -> ScriptedServerAction {
        nextToken += 1
        timers[nextToken] = timer
        return .schedule(token: nextToken, after: delay)
    }

    private static func encode(_ frame: OutgoingFrame) -> [UInt8] {
        var encoder = FrameEncoder()
        return encoder.encode(frame.header, payload: frame.payload)
    }

    /// `ACK seq NORMAL/1`, `CONTROL seq CONTROL/1 [VERSION_RESPONSE]`.
    static func label(_ frame: OutgoingFrame) -> String {
        let tags = TLVSequence(frame.payload).map { "\($0.tag)" }
        return "\(frame.header.messageType) seq \(frame.header.sequence)" + (tags.isEmpty ? "" : " [" + tags.joined(separator: ", ") + "]")
    }
}
