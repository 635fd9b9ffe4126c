import DecafSession
import DecafWire

/// Judges one run of a server case: a state machine that takes what happened on the case's
/// connection (a write done, a frame received, the close, a deadline passed) with the case's time,
/// and says what to do next, up to the verdict. It sends the steps' bytes, acknowledges the
/// target's frames as a client must (EX-1) and judges each expectation; anything the target sends
/// that breaks the protocol fails the case at once. No socket, clock or task: the driver
/// (`ServerCaseDriver`) moves the bytes and keeps the deadlines, as `ScriptedServer` and
/// `ClientJudge` leave them to the client suite's driver.
public struct ServerJudge {
    public let testCase: ConformanceCase
    let target: TargetIdentity
    /// The longest wait for anything the target must do, per expectation.
    let timeout: Duration
    /// The target's idle timeout (EX-6), when the user gave it.
    let idleTimeout: Duration?
    /// The session this run's frames carry instead of the catalog's, so a target that remembers
    /// repeats across connections (REPLAY-1) never takes one case's frames for another's.
    let session: SessionID
    /// Whether frames carry the run's clock in their timestamps; if not, the catalog's bytes exactly.
    let stampsFrames: Bool

    private(set) var observation = ServerObservation()
    /// The next step of the case to perform.
    private var step = 0
    /// Writes of the transmission under way, and what to wait for once they are done.
    private var pending: [(bytes: [UInt8], label: String, pause: Duration)] = []
    private var afterWrites: Awaiting?
    private var writing: Writing?
    private var awaiting: Awaiting?
    private var deadline: Duration = .zero
    private var finished = false
    /// The clock each transmission was stamped with when first sent, by its catalog bytes. A list,
    /// not a dictionary: a case sends a few, and comparing a copy with its original is a check of
    /// their shared storage, where hashing reads every byte (of a 10 MiB frame, say).
    private var stampsSent: [(bytes: [UInt8], stamp: UInt32?)] = []
    private var sentinelCounter = CaseFrames.sentinelCounter
    /// The sequences of the last transmission's whole frames: what a fatal error refuses.
    private(set) var lastSent: [UInt32] = []
    /// What passes only non-strictly, with the requirements concerned.
    var notes: [(String, [RequirementID])] = []
    /// What earned each expectation that was met, in order: what a pass names.
    private var evidence: [String] = []
    /// When the suite last wrote to the target (a transmission, the end of the stream, an ACK):
    /// what the target's idle timer counts from.
    private var lastWritten = Duration.zero

    public init(testCase: ConformanceCase, target: TargetIdentity, timeout: Duration, idleTimeout: Duration?, session: SessionID, stampsFrames: Bool) {
        self.testCase = testCase
        self.target = target
        self.timeout = timeout
        self.idleTimeout = idleTimeout
        self.session = session
        self.stampsFrames = stampsFrames
    }

    /// What the driver is writing, for the verdict when the write cannot complete.
    private enum Writing {
        case transmission(label: String)
        case endOfStream
    }

    /// What the case waits for the target to do, and what it judges once that happened or the
    /// wait's deadline passed.
    enum Awaiting {
        /// The ACK of the sentinel: the target has answered everything sent before it.
        case sentinelAck(SequenceNumber, then: AfterSentinel)
        case promptAck(SequenceNumber, within: Duration)
        /// The close, or an ACK of a frame it must refuse.
        case fatal(ErrorCode, exactCode: Bool, mark: Int, refused: [UInt32])
        case ackOrFatal(SequenceNumber, session: SessionID, ErrorCode, mark: Int)
        case close([ErrorCode], mark: Int)
        case versionResponse(VersionRequest, sequence: SequenceNumber, session: SessionID, mark: Int)
        /// The close HS-2 demands after a response to another major.
        case closeAfterResponse(wanted: String)
        case receipts(SequenceNumber, count: Int)
        case idleClose(Duration)
    }

    /// What a sentinel's ACK settles.
    enum AfterSentinel {
        case ack(SequenceNumber, session: SessionID)
        case noAck(SequenceNumber)
        /// No ACK of the frame, or the fatal error `code` since frame `mark`.
        case noAckOrFatal(SequenceNumber, ErrorCode, mark: Int)
        case receipts(SequenceNumber, count: Int)
        /// Silence where the fatal error `code` was due: the sentinel's ACK says the target took
        /// the frame; nothing at all, that it stopped answering.
        case silenceInsteadOf(ErrorCode)
    }

    /// How an expectation goes on once what it waited for happened, or did not in time.
    enum Next {
        case verdict(Verdict)
        case proceed
        case await(Awaiting)
        case sentinel(then: AfterSentinel)
    }

    // MARK: - Events

    public mutating func start(at now: SessionTime) -> [ServerCaseAction] {
        advance(at: now)
    }

    /// The write (or the end of the stream) the judge asked for is done.
    public mutating func wrote(at now: SessionTime) -> [ServerCaseAction] {
        writing = nil
        lastWritten = now.elapsed
        if !pending.isEmpty { return nextWrite() }
        if let next = afterWrites {
            afterWrites = nil
            return begin(next, at: now)
        }
        return advance(at: now)
    }

    /// The target took only `taken` of the `total` bytes of the write within `waited`.
    public mutating func writeStalled(taken: Int, total: Int, waited: Duration) -> [ServerCaseAction] {
        switch writing {
        case .endOfStream:
            return finish(Verdict(.timeout, "the target did not read to the end of the stream within \(waited)", expected: "the stream read to its end",
                                  actual: "unread bytes", requirements: testCase.requirements))
        case let .transmission(label):
            return finish(Verdict(.timeout, "the target stopped reading: it took \(taken) of the \(total) bytes of \(label) in \(waited)",
                                  expected: "every byte read", actual: "\(taken) of \(total) bytes read", requirements: testCase.requirements))
        case nil:
            return []
        }
    }

    /// The write failed for `reason`: the connection is gone when `connectionOpen` is false, and
    /// what the target did before is judged by the expectations that follow.
    public mutating func writeFailed(_ reason: String, connectionOpen: Bool, at now: SessionTime) -> [ServerCaseAction] {
        switch writing {
        case .endOfStream:
            // Whether a close before the end is right depends on what the case sent: its expectation judges it.
            observation.closedBeforeStreamEnded = true
        case .transmission:
            if connectionOpen && !observation.closed { return finish(Verdict(.harnessError, "writing to the target failed: \(reason)")) }
            pending = []
        case nil:
            return []
        }
        return wrote(at: now)
    }

    public mutating func received(_ frame: Frame, at now: SessionTime) -> [ServerCaseAction] {
        guard !finished else { return [] }
        observation.received(frame, at: now.elapsed)
        var actions: [ServerCaseAction] = []
        let header = frame.header
        // An ERROR announces the close; acknowledging it would only give the target more bytes to judge.
        if header.messageType != .ack, header.messageType.isAcknowledged, !ServerObservation.carriesError(frame) {
            let ack = header.acknowledgement(timestamp: stampsFrames ? now.unixSeconds : CaseFrames.timestamp, version: header.version)
            actions.append(.acknowledge(ack.bytes, label: "ACK of the target's \(header.messageType) seq \(header.sequence)"))
            lastWritten = now.elapsed
        }
        return actions + settle(at: now)
    }

    /// The target sent bytes that break the protocol.
    public mutating func failed(_ error: WireError, at now: SessionTime) -> [ServerCaseAction] {
        guard !finished else { return [] }
        observation.failed(error)
        return settle(at: now)
    }

    /// The target closed the connection.
    public mutating func closed(at now: SessionTime) -> [ServerCaseAction] {
        guard !finished else { return [] }
        observation.close()
        // Closed once idle for the idle timeout: the idle close, unless the idle close is what the case awaits.
        if let idle = idleTimeout, now.elapsed - lastWritten >= idle - TimingTolerance.early {
            if case .idleClose = awaiting {} else { observation.closedWhenIdle = now.elapsed - lastWritten }
        }
        return settle(at: now)
    }

    /// The deadline of the last `wait` passed with nothing that settles it.
    public mutating func deadlinePassed(at now: SessionTime) -> [ServerCaseAction] {
        guard let awaiting, !finished else { return [] }
        return conclude(awaiting, satisfied: false, at: now)
    }

    // MARK: - Steps

    /// Performs the steps from the next one until one needs the driver; after the last, the verdict.
    private mutating func advance(at now: SessionTime) -> [ServerCaseAction] {
        if let verdict = violation() { return finish(verdict) }
        guard step < testCase.steps.count else {
            // A pass names what earned it: each expectation's evidence, in order.
            let earned = evidence.isEmpty ? "" : ": " + evidence.joined(separator: "; ")
            if notes.isEmpty { return finish(Verdict(.pass, "the target did everything the case checks\(earned)", requirements: testCase.requirements)) }
            return finish(Verdict(.passNonStrict, notes.map(\.0).joined(separator: "; "), requirements: Array(notes.flatMap(\.1))))
        }
        step += 1
        switch testCase.steps[step - 1] {
        case let .send(transmission):
            return send(transmission, at: now)
        case .endStream:
            writing = .endOfStream
            return [.endStream]
        case let .expect(expectation):
            return expect(expectation, at: now)
        }
    }

    private mutating func send(_ transmission: Transmission, at now: SessionTime) -> [ServerCaseAction] {
        // A transmission sent again is a repeat: the same sequence and the same timestamp (REPLAY-1).
        let stamp: UInt32?
        if let first = stampsSent.first(where: { $0.bytes == transmission.bytes }) {
            stamp = first.stamp
        } else {
            stamp = stampsFrames ? now.unixSeconds : nil
            stampsSent.append((transmission.bytes, stamp))
        }
        let bytes = transmission.bytes(at: stamp, replacing: (CaseFrames.session, session))
        lastSent = Transmission.headers(in: bytes).map(\.sequence.rawValue)
        observation.sent(lastSent, at: now.elapsed)
        let writes = transmission.writes(of: bytes)
        pending = writes.enumerated().map { index, write in
            (writes.count == 1 ? bytes : Array(write), writes.count == 1 ? transmission.label : "\(transmission.label), write \(index + 1) of \(writes.count)", index > 0 ? transmission.pause : .zero)
        }
        afterWrites = nil
        return nextWrite()
    }

    private mutating func nextWrite() -> [ServerCaseAction] {
        let write = pending.removeFirst()
        writing = .transmission(label: write.label)
        return [.write(write.bytes, label: write.label, after: write.pause)]
    }

    /// Sends a DATA frame whose ACK shows that the target has answered everything sent before it,
    /// then waits for that ACK.
    private mutating func sendSentinel(then after: AfterSentinel, at now: SessionTime) -> [ServerCaseAction] {
        sentinelCounter += 1
        let (header, fields) = CaseFrames.data(sentinelCounter, "sentinel")
        let actions = send(Transmission(label: "sentinel \(CaseFrames.describe(header, fields))", bytes: CaseFrames.bytes(header, fields),
                                        stamps: [Transmission.Stamp(headerOffset: 0)]), at: now)
        afterWrites = .sentinelAck(header.sequence, then: after)
        return actions
    }

    /// The session a frame of the catalog with `session` carried as this run sent it.
    private func sent(_ session: SessionID) -> SessionID {
        session == CaseFrames.session ? self.session : session
    }

    private mutating func expect(_ expectation: Expectation, at now: SessionTime) -> [ServerCaseAction] {
        let mark = observation.frameCount
        switch expectation {
        case let .ack(sequence, session):
            return sendSentinel(then: .ack(sequence, session: sent(session)), at: now)
        case let .promptAck(sequence, deadline):
            return begin(.promptAck(sequence, within: deadline), at: now)
        case let .noAck(sequence):
            return sendSentinel(then: .noAck(sequence), at: now)
        case let .fatal(code, exactCode):
            return begin(.fatal(code, exactCode: exactCode, mark: mark, refused: lastSent), at: now)
        case let .ackOrFatal(sequence, session, code):
            return begin(.ackOrFatal(sequence, session: sent(session), code, mark: mark), at: now)
        case let .noAckOrFatal(sequence, code):
            return sendSentinel(then: .noAckOrFatal(sequence, code, mark: mark), at: now)
        case let .close(codes):
            return begin(.close(codes, mark: mark), at: now)
        case let .versionResponse(request, sequence, session):
            return begin(.versionResponse(request, sequence: sequence, session: sent(session), mark: mark), at: now)
        case let .readReceipts(sequence, count):
            if count == 0 { return sendSentinel(then: .receipts(sequence, count: 0), at: now) }
            return begin(.receipts(sequence, count: count), at: now)
        case .idleClose:
            guard let idle = idleTimeout else {
                return finish(Verdict(.unsupported, "the target's idle timeout was not given (--idle-timeout); the brief's 90 s is too long to wait for by default",
                                      requirements: [.ex6]))
            }
            // The target's timer cannot have started before the case began to connect.
            return begin(.idleClose(idle), at: now, deadline: TimingTolerance.bounds(idle).upperBound)
        }
    }

    // MARK: - Waiting

    /// Waits for `next`, until `deadline` (by default the timeout from now), unless it is already settled.
    private mutating func begin(_ next: Awaiting, at now: SessionTime, deadline: Duration? = nil) -> [ServerCaseAction] {
        awaiting = next
        self.deadline = deadline ?? now.elapsed + timeout
        let settled = settle(at: now)
        return settled.isEmpty ? [.wait(until: self.deadline)] : settled
    }

    /// Concludes the wait under way if what it waits for happened, or can no longer happen.
    private mutating func settle(at now: SessionTime) -> [ServerCaseAction] {
        guard let awaiting else { return [] }
        if isSatisfied(awaiting) { return conclude(awaiting, satisfied: true, at: now) }
        if observation.isOver { return conclude(awaiting, satisfied: false, at: now) }
        return []
    }

    private func isSatisfied(_ awaiting: Awaiting) -> Bool {
        switch awaiting {
        case let .sentinelAck(sentinel, _): observation.acknowledged(sentinel.rawValue) > 0
        case let .promptAck(sequence, _): observation.acknowledged(sequence.rawValue) > 0
        case let .fatal(_, _, _, refused): observation.closed || refused.contains { observation.acknowledged($0) > 0 }
        case let .ackOrFatal(sequence, _, _, mark): observation.acknowledged(sequence.rawValue) > 0 || observation.errorReport(since: mark) != nil
        case .close, .closeAfterResponse, .idleClose: observation.closed
        case let .versionResponse(_, sequence, _, mark): observation.response(since: mark) != nil && observation.acknowledged(sequence.rawValue) > 0
        case let .receipts(sequence, count): observation.receipts(for: sequence) >= count
        }
    }

    private mutating func conclude(_ concluded: Awaiting, satisfied: Bool, at now: SessionTime) -> [ServerCaseAction] {
        awaiting = nil
        if let verdict = violation() { return finish(verdict) }
        switch outcome(of: concluded, satisfied: satisfied, at: now.elapsed) {
        case let .verdict(verdict): return finish(verdict)
        case .proceed:
            if let seen = evidence(of: concluded, at: now.elapsed) { evidence.append(seen) }
            return advance(at: now)
        case let .await(next): return begin(next, at: now)
        case let .sentinel(after): return sendSentinel(then: after, at: now)
        }
    }

    private mutating func finish(_ verdict: Verdict) -> [ServerCaseAction] {
        finished = true
        awaiting = nil
        pending = []
        var verdict = verdict
        if !verdict.kind.isPass, observation.frameCount > Self.manyFrames {
            // A target that sends without end: what it did meanwhile is part of the cause.
            verdict.reason += "; meanwhile the target sent \(observation.frameCount) frames (\(observation.frameBytes) bytes) on this connection"
        }
        return [.finish(verdict)]
    }

    /// More frames than any case asks for on one connection.
    static let manyFrames = 64

    /// A failure for something the target sent that breaks the protocol, whatever the case checks.
    private func violation() -> Verdict? {
        if let error = observation.protocolError {
            let requirements: [RequirementID] = error.isByteSwappedChecksum ? [.crc1, .crc3] : [error.requirement]
            return Verdict(.fail, "the target sent bytes that break \(requirements.map(\.rawValue).joined(separator: ", ")): \(error)",
                           expected: "frames that follow the spec", actual: error.description, requirements: requirements, breaksMust: true)
        }
        if let ack = observation.strayAck {
            return Verdict(.fail, "the target sent an ACK with sequence \(Hex.word(ack.header.sequence.rawValue)), which no frame sent on this connection had",
                           expected: "ACKs carrying the sequence of the frame they acknowledge (sent: \(observation.sends.keys.sorted().map(Hex.word).joined(separator: ", ")))",
                           actual: "ACK seq \(ack.header.sequence)", requirements: [.ex1], breaksMust: true)
        }
        return nil
    }
}
