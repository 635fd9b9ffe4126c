import DecafNIO
import DecafWire

/// One run of one case on its own connection: it sends the steps' bytes, keeps everything the
/// target sends, acknowledges the target's frames as a client must (EX-1), and judges each
/// expectation. Anything the target sends that breaks the protocol fails the case at once.
final class CaseExecution {
    private let testCase: ConformanceCase
    private let client: WireClient
    private let target: TargetIdentity
    private let settings: ServerRunSettings
    private let profile: ConformanceProfile
    /// The session this execution's frames carry instead of the catalog's, so a target that
    /// remembers repeats across connections (REPLAY-1) never takes one case's frames for another's.
    private let session: SessionID
    private let clock = ContinuousClock()
    /// When the suite began to connect: the earliest moment the target could have started a
    /// timer for the connection.
    private let connecting: ContinuousClock.Instant

    /// Every frame received, in order.
    private var frames: [Frame] = []
    private var closed = false
    /// The clock each transmission was stamped with when first sent, by its catalog bytes.
    private var stampsSent: [[UInt8]: UInt32] = [:]
    /// The target closed the connection before the case ended the stream.
    private var closedBeforeStreamEnded = false
    private var protocolError: WireError?
    /// ACKs received per sequence, and frames sent per sequence.
    private var acks: [UInt32: Int] = [:]
    private var sends: [UInt32: Int] = [:]
    /// When each sequence was last sent, for the ACK deadline.
    private var sentAt: [UInt32: ContinuousClock.Instant] = [:]
    private var ackTimes: [UInt32: ContinuousClock.Instant] = [:]
    /// An ACK whose sequence no frame of ours had.
    private var strayAck: Frame?
    private var sentinelCounter = CaseFrames.sentinelCounter
    private var lastSent: [UInt32] = []
    private var notes: [(String, [RequirementID])] = []

    init(testCase: ConformanceCase, client: WireClient, connecting: ContinuousClock.Instant, target: TargetIdentity, settings: ServerRunSettings,
         profile: ConformanceProfile, session: SessionID) {
        self.testCase = testCase
        self.session = session
        self.connecting = connecting
        self.client = client
        self.target = target
        self.settings = settings
        self.profile = profile
    }

    /// Runs every step and returns the verdict.
    func run() async -> Verdict {
        for step in testCase.steps {
            if let verdict = await perform(step) { return verdict }
            if let verdict = violation() { return verdict }
        }
        if notes.isEmpty {
            return Verdict(.pass, "the target did everything the case checks", requirements: testCase.requirements)
        }
        return Verdict(.passNonStrict, notes.map(\.0).joined(separator: "; "), requirements: Array(notes.flatMap(\.1)))
    }

    /// Performs `step`; a verdict ends the case.
    private func perform(_ step: ConformanceStep) async -> Verdict? {
        switch step {
        case let .send(transmission):
            return await send(transmission)
        case .endStream:
            // Whether a close before the end is right depends on what the case sent: its
            // expectation judges it.
            do { try await client.endStream(within: settings.timeout) } catch let stalled as WriteStalled {
                return Verdict(.timeout, "the target did not read to the end of the stream within \(stalled.waited)", expected: "the stream read to its end",
                               actual: "unread bytes", requirements: testCase.requirements)
            } catch {
                closedBeforeStreamEnded = true
            }
            return nil
        case let .expect(expectation):
            return await judge(expectation)
        }
    }

    /// The session a frame of the catalog with `session` carried as this execution sent it.
    private func sent(_ session: SessionID) -> SessionID {
        session == CaseFrames.session ? self.session : session
    }

    // MARK: - Sending

    private func send(_ transmission: Transmission) async -> Verdict? {
        // A transmission sent again is a repeat: the same sequence and the same timestamp (REPLAY-1).
        let stamp = stampsSent[transmission.bytes] ?? settings.clock?()
        stampsSent[transmission.bytes] = stamp
        let bytes = transmission.bytes(at: stamp, replacing: (CaseFrames.session, session))
        lastSent = Transmission.headers(in: bytes).map(\.sequence.rawValue)
        let now = clock.now
        for sequence in lastSent {
            sends[sequence, default: 0] += 1
            sentAt[sequence] = now
        }
        let writes = transmission.writes(of: bytes)
        for (index, write) in writes.enumerated() {
            if index > 0, transmission.pause > .zero { try? await Task.sleep(for: transmission.pause) }
            if Task.isCancelled { break }
            let label = writes.count == 1 ? transmission.label : "\(transmission.label), write \(index + 1) of \(writes.count)"
            do { try await client.send(raw: write, label: label, within: settings.timeout) } catch let stalled as WriteStalled {
                return Verdict(.timeout, "the target stopped reading: it took \(stalled.taken) of the \(stalled.total) bytes of \(label) in \(stalled.waited)",
                               expected: "every byte read", actual: "\(stalled.taken) of \(stalled.total) bytes read", requirements: testCase.requirements)
            } catch {
                if closed || !client.isOpen || Task.isCancelled { break }
                return Verdict(.harnessError, "writing to the target failed: \(error)")
            }
        }
        return nil
    }

    /// Sends a DATA frame whose ACK shows that the target has answered everything sent before it.
    private func sendSentinel() async -> SequenceNumber {
        sentinelCounter += 1
        let (header, fields) = CaseFrames.data(sentinelCounter, "sentinel")
        _ = await send(Transmission(label: "sentinel \(CaseFrames.describe(header, fields))", bytes: CaseFrames.bytes(header, fields),
                                    stamps: [Transmission.Stamp(headerOffset: 0)]))
        return header.sequence
    }

    // MARK: - Receiving

    /// Reads events until `done` holds, the connection ends, the target breaks the protocol, or
    /// `timeout` passes. Returns whether `done` held.
    private func wait(timeout: Duration? = nil, until done: () -> Bool) async -> Bool {
        let deadline = clock.now + (timeout ?? settings.timeout)
        while !done() {
            if closed || protocolError != nil || strayAck != nil { return false }
            let remaining = deadline - clock.now
            guard remaining > .zero, let event = await client.next(timeout: remaining) else { return false }
            await take(event)
        }
        return true
    }

    private func take(_ event: WireEvent) async {
        switch event {
        case let .frame(frame):
            frames.append(frame)
            let header = frame.header
            if header.messageType == .ack {
                let sequence = header.sequence.rawValue
                if sends[sequence] == nil, strayAck == nil { strayAck = frame }
                acks[sequence, default: 0] += 1
                if ackTimes[sequence] == nil { ackTimes[sequence] = clock.now }
            } else if header.messageType.isAcknowledged, !Self.carriesError(frame) {
                // An ERROR announces the close; acknowledging it would only give the target more bytes to judge.
                let ack = header.acknowledgement(timestamp: settings.clock?() ?? CaseFrames.timestamp, version: header.version)
                try? await client.send(raw: ack.bytes, label: "ACK of the target's \(header.messageType) seq \(header.sequence)", within: settings.timeout)
            }
        case let .error(error):
            protocolError = error
        case .closed:
            closed = true
        }
    }

    /// A failure for something the target sent that breaks the protocol, whatever the case checks.
    private func violation() -> Verdict? {
        if let error = protocolError {
            let requirements: [RequirementID] = error.isByteSwappedChecksum ? [.crc1, .crc3] : [error.requirement]
            return Verdict(.fail, "the target sent bytes that break \(requirements.map(\.rawValue).joined(separator: ", ")): \(error)",
                           expected: "frames that follow the spec", actual: error.description, requirements: requirements)
        }
        if let ack = strayAck {
            return Verdict(.fail, "the target sent an ACK with sequence \(Hex.word(ack.header.sequence.rawValue)), which no frame sent on this connection had",
                           expected: "ACKs carrying the sequence of the frame they acknowledge (sent: \(sends.keys.sorted().map(Hex.word).joined(separator: ", ")))",
                           actual: "ACK seq \(ack.header.sequence)", requirements: [.ex1])
        }
        return nil
    }

    // MARK: - Judging

    private func judge(_ expectation: Expectation) async -> Verdict? {
        switch expectation {
        case let .ack(sequence, session):
            return await judgeAck(sequence, session: sent(session))
        case let .promptAck(sequence, deadline):
            return await judgePromptAck(sequence, deadline: deadline)
        case let .noAck(sequence):
            return await judgeNoAck(sequence)
        case let .fatal(code, exactCode):
            return await judgeFatal(code, exactCode: exactCode, since: frames.count)
        case let .ackOrFatal(sequence, session, code):
            let mark = frames.count
            _ = await wait { acks[sequence.rawValue, default: 0] > 0 || errorReport(since: mark) != nil }
            if acks[sequence.rawValue, default: 0] > 0 { return await judgeAck(sequence, session: sent(session)) }
            return await judgeFatal(code, exactCode: false, since: mark)
        case let .close(codes):
            return await judgeClose(codes, since: frames.count)
        case let .versionResponse(request, sequence, session):
            return await judgeVersionResponse(request, sequence: sequence, session: sent(session))
        case let .readReceipts(sequence, count):
            return await judgeReadReceipts(sequence, count: count)
        case .idleClose:
            return await judgeIdleClose()
        }
    }

    /// Exactly as many ACKs of `sequence` as frames sent with it, each in EX-1's form.
    private func judgeAck(_ sequence: SequenceNumber, session: SessionID) async -> Verdict? {
        let sentinel = await sendSentinel()
        let answered = await wait { acks[sentinel.rawValue, default: 0] > 0 }
        if let verdict = violation() { return verdict }
        let count = acks[sequence.rawValue, default: 0]
        let expected = sends[sequence.rawValue, default: 1]
        let wanted = "\(expected) ACK\(expected == 1 ? "" : "s") of \(sequence) (one per frame sent)"
        if !answered {
            if closed { return closedVerdict(expected: wanted) }
            if count == 0 {
                return Verdict(.timeout, "no ACK of \(sequence) within \(settings.timeout)", expected: wanted, actual: "nothing", requirements: testCase.requirements)
            }
            return Verdict(.timeout, "no ACK of the sentinel frame \(sentinel) within \(settings.timeout)",
                           expected: "an ACK of every DATA frame", actual: "\(count) ACK(s) of \(sequence), none of the sentinel", requirements: [.ex1])
        }
        if count != expected {
            let reason = count == 0
                ? "the target never acknowledged \(sequence), though it acknowledged a later frame"
                : "the target acknowledged \(sequence) \(count) times"
            return Verdict(.fail, reason, expected: wanted, actual: "\(count)", requirements: testCase.requirements.filter { $0 != .ex1 } + [.ex1])
        }
        for frame in frames where frame.header.messageType == .ack && frame.header.sequence == sequence {
            if let verdict = judgeForm(ofAck: frame, session: session) { return verdict }
        }
        return nil
    }

    /// The form EX-1 gives an ACK, and the session it must echo (SESSION-1).
    private func judgeForm(ofAck frame: Frame, session: SessionID) -> Verdict? {
        let header = frame.header
        var problems: [String] = []
        if header.bodyLength != 0 { problems.append("body_length \(header.bodyLength)") }
        if header.checksum != 0 { problems.append("checksum \(Hex.word(header.checksum))") }
        if header.encryptType != .none { problems.append("encrypt_type \(header.encryptType.rawValue)") }
        if header.compressType != .none { problems.append("compress_type \(header.compressType.rawValue)") }
        if !problems.isEmpty {
            return Verdict(.fail, "the ACK of \(header.sequence) has \(problems.joined(separator: ", "))",
                           expected: "empty body, checksum 0, encrypt_type 0, compress_type 0", actual: problems.joined(separator: ", "), requirements: [.ex1])
        }
        if header.sessionID != session {
            return Verdict(.fail, "the ACK of \(header.sequence) does not echo the session",
                           expected: "session_id \(Hex.format(session.rawValue, width: 4))", actual: "session_id \(Hex.format(header.sessionID.rawValue, width: 4))",
                           requirements: [.session1, .ex1])
        }
        return nil
    }

    private func judgePromptAck(_ sequence: SequenceNumber, deadline: Duration) async -> Verdict? {
        let acknowledged = await wait { acks[sequence.rawValue, default: 0] > 0 }
        if let verdict = violation() { return verdict }
        guard acknowledged, let sent = sentAt[sequence.rawValue], let answered = ackTimes[sequence.rawValue] else {
            if closed { return closedVerdict(expected: "an ACK of \(sequence) within \(deadline)") }
            return Verdict(.timeout, "no ACK of \(sequence) within \(settings.timeout)", expected: "an ACK within \(deadline)", actual: "nothing",
                           requirements: testCase.requirements)
        }
        let latency = answered - sent
        if latency > deadline {
            return Verdict(.fail, "the ACK of \(sequence) came after \(DurationText.milliseconds(latency, decimals: 0)), so a client's retransmission timer would fire",
                           expected: "an ACK within \(DurationText.milliseconds(deadline, decimals: 0))", actual: "an ACK after \(DurationText.milliseconds(latency, decimals: 0))", requirements: [.ex1, .ex7])
        }
        return nil
    }

    private func judgeNoAck(_ sequence: SequenceNumber) async -> Verdict? {
        let sentinel = await sendSentinel()
        let answered = await wait { acks[sentinel.rawValue, default: 0] > 0 }
        if let verdict = violation() { return verdict }
        if let count = acks[sequence.rawValue], count > 0 {
            return Verdict(.fail, "the target acknowledged \(sequence), which must not be acknowledged",
                           expected: "no ACK of \(sequence)", actual: "\(count) ACK(s)", requirements: testCase.requirements)
        }
        if !answered {
            if closed { return closedVerdict(expected: "the connection kept open, no ACK of \(sequence)") }
            return Verdict(.timeout, "no ACK of the sentinel frame \(sentinel) within \(settings.timeout)", expected: "an ACK of the sentinel DATA frame",
                           actual: "nothing", requirements: testCase.requirements)
        }
        return nil
    }

    /// An ERROR TLV with `code`, then the close (EX-5); the refused frame must not be acknowledged.
    /// Nothing more is sent: a target that does not close by itself within the timeout fails.
    private func judgeFatal(_ code: ErrorCode, exactCode: Bool, since mark: Int) async -> Verdict? {
        let refused = lastSent
        let wanted = "ERROR \(code.rawValue) \(code.name), then the close"
        let ended = await wait { closed || refused.contains { acks[$0, default: 0] > 0 } }
        if let verdict = violation() { return verdict }
        if let accepted = refused.first(where: { acks[$0, default: 0] > 0 }) {
            return Verdict(.fail, "the target acknowledged the frame it must refuse (\(Hex.word(accepted)))",
                           expected: wanted, actual: "an ACK", requirements: testCase.requirements)
        }
        if !ended {
            if errorReport(since: mark) != nil {
                return Verdict(.fail, "the target sent an ERROR but did not close the connection within \(settings.timeout)",
                               expected: wanted, actual: "ERROR, connection open", requirements: testCase.requirements.filter { $0 != .ex5 } + [.ex5])
            }
            return Verdict(.timeout, "neither an ERROR nor the close within \(settings.timeout)", expected: wanted, actual: "nothing",
                           requirements: testCase.requirements)
        }
        return judgeErrorReport(code, exactCode: exactCode, since: mark, wanted: wanted)
    }

    private func judgeErrorReport(_ code: ErrorCode, exactCode: Bool, since mark: Int, wanted: String) -> Verdict? {
        guard let report = errorReport(since: mark) else {
            notes.append(("the target closed without an ERROR TLV (EX-5 says it should send one)", [.ex5]))
            return nil
        }
        if report.code == code.rawValue { return nil }
        let sent = "ERROR \(report.code) \(ErrorCode(rawValue: report.code)?.name ?? "(undefined)")"
        if exactCode {
            return Verdict(.fail, "the target reported \(sent) where the spec's order of checks gives \(code.name)",
                           expected: wanted, actual: "\(sent): \(report.reason)", requirements: testCase.requirements)
        }
        notes.append(("the target reported \(sent), not \(code.name)", [.ex5]))
        return nil
    }

    private func judgeClose(_ codes: [ErrorCode], since mark: Int) async -> Verdict? {
        let names = codes.map(\.name).joined(separator: " or ")
        let wanted = "the close (an ERROR \(names) may come first)"
        let ended = await wait { closed }
        if let verdict = violation() { return verdict }
        if closedBeforeStreamEnded && codes == [.truncatedFrame] {
            return Verdict(.fail, "the target closed the connection before the stream ended, though nothing it had read broke a rule",
                           expected: wanted, actual: "a close before the end", requirements: testCase.requirements)
        }
        if !ended {
            return Verdict(.fail, "the connection was still open \(settings.timeout) after the stream ended", expected: wanted, actual: "open",
                           requirements: testCase.requirements)
        }
        guard let report = errorReport(since: mark), !codes.contains(where: { $0.rawValue == report.code }) else { return nil }
        notes.append(("the target reported ERROR \(report.code), not \(names)", [.ex5]))
        return nil
    }

    private func judgeVersionResponse(_ request: VersionRequest, sequence: SequenceNumber, session: SessionID) async -> Verdict? {
        let mark = frames.count
        let outcome = target.answer(to: request)
        let wanted = "VERSION_RESPONSE \(outcome.response.version), features \(outcome.response.features)\(outcome.closesConnection ? ", then the close" : "")"
        _ = await wait { response(since: mark) != nil && acks[sequence.rawValue, default: 0] > 0 }
        if let verdict = violation() { return verdict }
        guard let (frame, response) = response(since: mark) else {
            if closed { return closedVerdict(expected: wanted) }
            return Verdict(.timeout, "no VERSION_RESPONSE within \(settings.timeout)", expected: wanted, actual: "nothing", requirements: [.hs2])
        }
        if response.version != outcome.response.version || response.features != outcome.response.features {
            return Verdict(.fail, "the VERSION_RESPONSE does not follow HS-2 for a target of \(target.version) with features \(Hex.format(target.features.rawValue, width: 4))",
                           expected: wanted, actual: "VERSION_RESPONSE \(response.version), features \(response.features)", requirements: [.hs2])
        }
        if frame.header.messageType != .control {
            return Verdict(.fail, "the VERSION_RESPONSE came in a \(frame.header.messageType) frame", expected: "a CONTROL frame",
                           actual: "\(frame.header.messageType)", requirements: [.hs2])
        }
        if frame.header.sessionID != session {
            return Verdict(.fail, "the VERSION_RESPONSE does not echo the request's session", expected: Hex.format(session.rawValue, width: 4),
                           actual: Hex.format(frame.header.sessionID.rawValue, width: 4), requirements: [.session1, .hs2])
        }
        if frame.header.sequence.category != .control {
            notes.append(("the VERSION_RESPONSE uses sequence category \(frame.header.sequence.category), not CONTROL", [.seq2, .hs2]))
        }
        if outcome.closesConnection {
            if await wait(until: { closed }) { return nil }
            return Verdict(.fail, "the target answered another major but did not close the connection", expected: wanted,
                           actual: "connection open after the response", requirements: [.hs2])
        }
        if !testCase.needs.isSubset(of: response.features) {
            return Verdict(.unsupported, "the target did not agree to \(testCase.needs)", expected: "features including \(testCase.needs)",
                           actual: "\(response.features)", requirements: testCase.requirements)
        }
        return await judgeAck(sequence, session: session)
    }

    private func judgeReadReceipts(_ sequence: SequenceNumber, count: Int) async -> Verdict? {
        if count > 0 {
            let arrived = await wait { receipts(for: sequence) >= count }
            if let verdict = violation() { return verdict }
            if !arrived {
                if closed { return closedVerdict(expected: "READ_RECEIPT for \(sequence)") }
                return Verdict(.timeout, "no READ_RECEIPT for \(sequence) within \(settings.timeout) though READ_RECEIPT was agreed",
                               expected: "\(count) READ_RECEIPT(s) for \(sequence)", actual: "\(receipts(for: sequence))", requirements: [.ex4])
            }
        }
        let sentinel = await sendSentinel()
        let answered = await wait { acks[sentinel.rawValue, default: 0] > 0 }
        if let verdict = violation() { return verdict }
        let seen = receipts(for: sequence)
        if seen != count {
            return Verdict(.fail, "the target sent \(seen) READ_RECEIPT(s) for \(sequence)", expected: "\(count)", actual: "\(seen)",
                           requirements: testCase.requirements)
        }
        // Without the sentinel's ACK, a READ_RECEIPT too many may still be on its way: no pass.
        if !answered {
            if closed { return closedVerdict(expected: "\(count) READ_RECEIPT(s) for \(sequence), then the ACK of the sentinel") }
            return Verdict(.timeout, "no ACK of the sentinel frame \(sentinel) within \(settings.timeout)", expected: "an ACK of the sentinel DATA frame",
                           actual: "nothing", requirements: testCase.requirements)
        }
        return nil
    }

    /// The close must come no sooner than the idle timeout after the suite began to connect (the
    /// target's timer cannot have started earlier), within the timing tolerance.
    private func judgeIdleClose() async -> Verdict? {
        guard let idle = profile.idleTimeout else {
            return Verdict(.unsupported, "the target's idle timeout was not given (--idle-timeout); the brief's 90 s is too long to wait for by default",
                           requirements: [.ex6])
        }
        let allowed = TimingTolerance.bounds(idle)
        if await wait(timeout: allowed.upperBound - (clock.now - connecting), until: { closed }) {
            if let verdict = violation() { return verdict }
            let after = clock.now - connecting
            if after < allowed.lowerBound {
                return Verdict(.fail, "the target closed an idle connection \(DurationText.milliseconds(after, decimals: 0)) after it was opened, before its idle timeout",
                               expected: "the close after \(idle)", actual: "the close after \(DurationText.milliseconds(after, decimals: 0))", requirements: [.ex6])
            }
            return nil
        }
        if let verdict = violation() { return verdict }
        return Verdict(.fail, "an idle connection was still open \(DurationText.milliseconds(allowed.upperBound, decimals: 0)) after it was opened",
                       expected: "the close after \(idle)", actual: "open", requirements: [.ex6])
    }

    // MARK: - What was received

    /// The first ERROR TLV in a frame received at or after index `mark`.
    private func errorReport(since mark: Int) -> ErrorReport? {
        for frame in frames[min(mark, frames.count)...] {
            for field in frame.fields { if case let .error(report) = field.interpreted { return report } }
        }
        return nil
    }

    private func response(since mark: Int) -> (Frame, VersionResponse)? {
        for frame in frames[min(mark, frames.count)...] {
            for field in frame.fields { if case let .versionResponse(response) = field.interpreted { return (frame, response) } }
        }
        return nil
    }

    private func receipts(for sequence: SequenceNumber) -> Int {
        frames.filter { frame in
            frame.header.messageType == .readReceipt
                && frame.fields.contains { if case let .readReceipt(receipt) = $0.interpreted { receipt.sequence == sequence } else { false } }
        }.count
    }

    private static func carriesError(_ frame: Frame) -> Bool {
        frame.fields.contains { if case .error = $0.interpreted { true } else { false } }
    }

    private func closedVerdict(expected: String) -> Verdict {
        let error = errorReport(since: 0).map { " after ERROR \($0.code) \(ErrorCode(rawValue: $0.code)?.name ?? ""): \($0.reason)" } ?? ""
        return Verdict(.fail, "the target closed the connection\(error)", expected: expected, actual: "the close\(error)", requirements: testCase.requirements)
    }
}
