import DecafWire

/// What each expectation makes of what the target did once its wait is over: a verdict, the next
/// step, or one more wait. Pure functions of the observation (and the notes they add).
extension ServerJudge {
    /// The outcome of `awaiting`, whose condition held (`satisfied`) or did not by its deadline or
    /// the close; `now` is the case's time.
    mutating func outcome(of awaiting: Awaiting, satisfied: Bool, at now: Duration) -> Next {
        switch awaiting {
        case let .sentinelAck(sentinel, .ack(sequence, session)):
            return ack(sequence, session: session, sentinel: sentinel, answered: satisfied).map(Next.verdict) ?? .proceed
        case let .sentinelAck(sentinel, .noAck(sequence)):
            return noAck(sequence, sentinel: sentinel, answered: satisfied).map(Next.verdict) ?? .proceed
        case let .sentinelAck(sentinel, .noAckOrFatal(sequence, code, mark)):
            // The close before the sentinel's ACK is the refusal the brief allows; judged as one.
            if !satisfied, observation.closed {
                return fatal(code, exactCode: false, since: mark, refused: [sequence.rawValue], ended: true)
            }
            return noAck(sequence, sentinel: sentinel, answered: satisfied).map(Next.verdict) ?? .proceed
        case let .sentinelAck(sentinel, .receipts(sequence, count)):
            return receiptsSettled(sequence, count: count, sentinel: sentinel, answered: satisfied).map(Next.verdict) ?? .proceed
        case let .sentinelAck(sentinel, .silenceInsteadOf(code)):
            let wanted = "ERROR \(code.rawValue) \(code.name), then the close"
            guard satisfied else {
                return .verdict(Verdict(.timeout, "neither an ERROR nor the close within \(timeout), nor an ACK of the DATA frame \(sentinel) sent after it",
                                        expected: wanted, actual: "nothing", requirements: testCase.requirements))
            }
            return .verdict(Verdict(.fail, "the target took the frame it must refuse: no ERROR and no close, and it acknowledged the DATA frame sent after it",
                                    expected: wanted, actual: "silence, then the ACK of \(sentinel)", requirements: testCase.requirements))
        case let .promptAck(sequence, deadline):
            return promptAck(sequence, within: deadline, acknowledged: satisfied).map(Next.verdict) ?? .proceed
        case let .fatal(code, exactCode, mark, refused):
            return fatal(code, exactCode: exactCode, since: mark, refused: refused, ended: satisfied)
        case let .ackOrFatal(sequence, session, code, mark):
            if observation.acknowledged(sequence.rawValue) > 0 { return .sentinel(then: .ack(sequence, session: session)) }
            return .await(.fatal(code, exactCode: false, mark: mark, refused: lastSent))
        case let .close(codes, mark):
            return close(codes, since: mark, ended: satisfied).map(Next.verdict) ?? .proceed
        case let .versionResponse(request, sequence, session, mark):
            return versionResponse(request, sequence: sequence, session: session, since: mark)
        case let .closeAfterResponse(wanted):
            if satisfied { return .proceed }
            return .verdict(Verdict(.fail, "the target answered another major but did not close the connection", expected: wanted,
                                    actual: "connection open after the response", requirements: [.hs2]))
        case let .receipts(sequence, count):
            if satisfied { return .sentinel(then: .receipts(sequence, count: count)) }
            if observation.closed { return .verdict(closedVerdict(expected: "READ_RECEIPT for \(sequence)")) }
            return .verdict(Verdict(.timeout, "no READ_RECEIPT for \(sequence) within \(timeout) though READ_RECEIPT was agreed",
                                    expected: "\(count) READ_RECEIPT(s) for \(sequence)", actual: "\(observation.receipts(for: sequence))", requirements: [.ex4]))
        case let .idleClose(idle):
            return idleClose(idle, closed: satisfied, at: now).map(Next.verdict) ?? .proceed
        }
    }

    /// Exactly as many ACKs of `sequence` as frames sent with it, each in EX-1's form.
    private func ack(_ sequence: SequenceNumber, session: SessionID, sentinel: SequenceNumber, answered: Bool) -> Verdict? {
        let count = observation.acknowledged(sequence.rawValue)
        let expected = observation.sends[sequence.rawValue, default: 1]
        let wanted = "\(expected) ACK\(expected == 1 ? "" : "s") of \(sequence) (one per frame sent)"
        if !answered {
            if observation.closed { return closedVerdict(expected: wanted) }
            if count == 0 {
                return Verdict(.timeout, "no ACK of \(sequence) within \(timeout)", expected: wanted, actual: "nothing", requirements: testCase.requirements)
            }
            return Verdict(.timeout, "no ACK of the sentinel frame \(sentinel) within \(timeout)",
                           expected: "an ACK of every DATA frame", actual: "\(count) ACK(s) of \(sequence), none of the sentinel", requirements: [.ex1])
        }
        if count != expected {
            let reason = count == 0
                ? "the target never acknowledged \(sequence), though it acknowledged a later frame"
                : "the target acknowledged \(sequence) \(count) times"
            return Verdict(.fail, reason, expected: wanted, actual: "\(count)", requirements: testCase.requirements.filter { $0 != .ex1 } + [.ex1])
        }
        for frame in observation.ackFrames(of: sequence) {
            if let verdict = form(ofAck: frame, session: session) { return verdict }
        }
        return nil
    }

    /// The form EX-1 gives an ACK, and the session it must echo (SESSION-1).
    private func form(ofAck frame: Frame, session: SessionID) -> Verdict? {
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

    private func promptAck(_ sequence: SequenceNumber, within deadline: Duration, acknowledged: Bool) -> Verdict? {
        guard acknowledged, let sent = observation.sentAt[sequence.rawValue], let answered = observation.ackTimes[sequence.rawValue] else {
            if observation.closed { return closedVerdict(expected: "an ACK of \(sequence) within \(deadline)") }
            return Verdict(.timeout, "no ACK of \(sequence) within \(timeout)", expected: "an ACK within \(deadline)", actual: "nothing",
                           requirements: testCase.requirements)
        }
        let latency = answered - sent
        guard latency > deadline else { return nil }
        return Verdict(.fail, "the ACK of \(sequence) came after \(DurationText.milliseconds(latency, decimals: 0)), so a client's retransmission timer would fire",
                       expected: "an ACK within \(DurationText.milliseconds(deadline, decimals: 0))", actual: "an ACK after \(DurationText.milliseconds(latency, decimals: 0))",
                       requirements: [.ex1, .ex7])
    }

    private func noAck(_ sequence: SequenceNumber, sentinel: SequenceNumber, answered: Bool) -> Verdict? {
        let count = observation.acknowledged(sequence.rawValue)
        if count > 0 {
            return Verdict(.fail, "the target acknowledged \(sequence), which must not be acknowledged",
                           expected: "no ACK of \(sequence)", actual: "\(count) ACK(s)", requirements: testCase.requirements)
        }
        guard !answered else { return nil }
        if observation.closed { return closedVerdict(expected: "the connection kept open, no ACK of \(sequence)") }
        return Verdict(.timeout, "no ACK of the sentinel frame \(sentinel) within \(timeout)", expected: "an ACK of the sentinel DATA frame",
                       actual: "nothing", requirements: testCase.requirements)
    }

    /// An ERROR TLV with `code`, then the close (EX-5); the refused frame must not be acknowledged.
    /// A target still silent when the wait is over is sent a DATA frame: its ACK says the target
    /// took the frame (no ACK is due for an ACK or an undefined type), nothing that it stopped
    /// answering (`silenceInsteadOf`).
    private mutating func fatal(_ code: ErrorCode, exactCode: Bool, since mark: Int, refused: [UInt32], ended: Bool) -> Next {
        let wanted = "ERROR \(code.rawValue) \(code.name), then the close"
        if let accepted = refused.first(where: { observation.acknowledged($0) > 0 }) {
            return .verdict(Verdict(.fail, "the target acknowledged the frame it must refuse (\(Hex.word(accepted)))",
                                    expected: wanted, actual: "an ACK", requirements: testCase.requirements))
        }
        if !ended {
            guard observation.errorReport(since: mark) != nil else { return .sentinel(then: .silenceInsteadOf(code)) }
            return .verdict(Verdict(.fail, "the target sent an ERROR but did not close the connection within \(timeout)",
                                    expected: wanted, actual: "ERROR, connection open", requirements: testCase.requirements.filter { $0 != .ex5 } + [.ex5]))
        }
        guard let report = observation.errorReport(since: mark) else {
            if let idle = idleClose(expected: wanted) { return .verdict(idle) }
            notes.append(("the target closed without an ERROR TLV (EX-5 says it should send one)", [.ex5]))
            return .proceed
        }
        if report.code == code.rawValue { return .proceed }
        let sent = "ERROR \(report.code) \(ErrorCode(rawValue: report.code)?.name ?? "(undefined)")"
        if exactCode {
            return .verdict(Verdict(.fail, "the target reported \(sent) where the spec's order of checks gives \(code.name)",
                                    expected: wanted, actual: "\(sent): \(report.reason)", requirements: testCase.requirements))
        }
        notes.append(("the target reported \(sent), not \(code.name)", [.ex5]))
        return .proceed
    }

    private mutating func close(_ codes: [ErrorCode], since mark: Int, ended: Bool) -> Verdict? {
        let names = codes.map(\.name).joined(separator: " or ")
        let wanted = "the close (an ERROR \(names) may come first)"
        if observation.closedBeforeStreamEnded && codes == [.truncatedFrame] {
            return Verdict(.fail, "the target closed the connection before the stream ended, though nothing it had read broke a rule",
                           expected: wanted, actual: "a close before the end", requirements: testCase.requirements)
        }
        if !ended {
            return Verdict(.fail, "the connection was still open \(timeout) after the stream ended", expected: wanted, actual: "open",
                           requirements: testCase.requirements)
        }
        if observation.errorReport(since: mark) == nil, let idle = idleClose(expected: wanted) { return idle }
        guard let report = observation.errorReport(since: mark), !codes.contains(where: { $0.rawValue == report.code }) else { return nil }
        notes.append(("the target reported ERROR \(report.code), not \(names)", [.ex5]))
        return nil
    }

    /// The VERSION_RESPONSE HS-2 gives for the target's version and features, in a CONTROL frame
    /// echoing the session; then the close for another major, or the ACK of the request.
    private mutating func versionResponse(_ request: VersionRequest, sequence: SequenceNumber, session: SessionID, since mark: Int) -> Next {
        let outcome = target.answer(to: request)
        let wanted = "VERSION_RESPONSE \(outcome.response.version), features \(outcome.response.features)\(outcome.closesConnection ? ", then the close" : "")"
        guard let (frame, response) = observation.response(since: mark) else {
            if observation.closed { return .verdict(closedVerdict(expected: wanted)) }
            return .verdict(Verdict(.timeout, "no VERSION_RESPONSE within \(timeout)", expected: wanted, actual: "nothing", requirements: [.hs2]))
        }
        if response.version != outcome.response.version || response.features != outcome.response.features {
            return .verdict(Verdict(.fail, "the VERSION_RESPONSE does not follow HS-2 for a target of \(target.version) with features \(Hex.format(target.features.rawValue, width: 4))",
                                    expected: wanted, actual: "VERSION_RESPONSE \(response.version), features \(response.features)", requirements: [.hs2]))
        }
        if frame.header.messageType != .control {
            return .verdict(Verdict(.fail, "the VERSION_RESPONSE came in a \(frame.header.messageType) frame", expected: "a CONTROL frame",
                                    actual: "\(frame.header.messageType)", requirements: [.hs2]))
        }
        if frame.header.sessionID != session {
            return .verdict(Verdict(.fail, "the VERSION_RESPONSE does not echo the request's session", expected: Hex.format(session.rawValue, width: 4),
                                    actual: Hex.format(frame.header.sessionID.rawValue, width: 4), requirements: [.session1, .hs2]))
        }
        if frame.header.sequence.category != .control {
            notes.append(("the VERSION_RESPONSE uses sequence category \(frame.header.sequence.category), not CONTROL", [.seq2, .hs2]))
        }
        if outcome.closesConnection { return .await(.closeAfterResponse(wanted: wanted)) }
        if !testCase.needs.isSubset(of: response.features) {
            return .verdict(Verdict(.unsupported, "the target did not agree to \(testCase.needs)", expected: "features including \(testCase.needs)",
                                    actual: "\(response.features)", requirements: testCase.requirements))
        }
        return .sentinel(then: .ack(sequence, session: session))
    }

    /// Exactly `count` READ_RECEIPT frames once the sentinel is acknowledged: without its ACK, a
    /// READ_RECEIPT too many may still be on its way, so no pass.
    private func receiptsSettled(_ sequence: SequenceNumber, count: Int, sentinel: SequenceNumber, answered: Bool) -> Verdict? {
        let seen = observation.receipts(for: sequence)
        if seen != count {
            return Verdict(.fail, "the target sent \(seen) READ_RECEIPT(s) for \(sequence)", expected: "\(count)", actual: "\(seen)",
                           requirements: testCase.requirements)
        }
        guard !answered else { return nil }
        if observation.closed { return closedVerdict(expected: "\(count) READ_RECEIPT(s) for \(sequence), then the ACK of the sentinel") }
        return Verdict(.timeout, "no ACK of the sentinel frame \(sentinel) within \(timeout)", expected: "an ACK of the sentinel DATA frame",
                       actual: "nothing", requirements: testCase.requirements)
    }

    /// The close must come no sooner than the idle timeout after the case began to connect (the
    /// target's timer cannot have started earlier), within the timing tolerance.
    private func idleClose(_ idle: Duration, closed: Bool, at now: Duration) -> Verdict? {
        let allowed = TimingTolerance.bounds(idle)
        guard closed else {
            return Verdict(.fail, "an idle connection was still open \(DurationText.milliseconds(allowed.upperBound, decimals: 0)) after it was opened",
                           expected: "the close after \(idle)", actual: "open", requirements: [.ex6])
        }
        guard now < allowed.lowerBound else { return nil }
        return Verdict(.fail, "the target closed an idle connection \(DurationText.milliseconds(now, decimals: 0)) after it was opened, before its idle timeout",
                       expected: "the close after \(idle)", actual: "the close after \(DurationText.milliseconds(now, decimals: 0))", requirements: [.ex6])
    }

    /// What the target did that met `awaiting`, said with its time: the evidence a pass names.
    func evidence(of awaiting: Awaiting, at now: Duration) -> String? {
        func at(_ time: Duration?) -> String { time.map { " at \(DurationText.milliseconds($0, decimals: 0))" } ?? "" }
        switch awaiting {
        case let .sentinelAck(sentinel, .ack(sequence, _)):
            return "one ACK of \(sequence)\(at(observation.ackTimes[sequence.rawValue])), then the sentinel's\(at(observation.ackTimes[sentinel.rawValue]))"
        case let .sentinelAck(sentinel, .noAck(sequence)):
            return "no ACK of \(sequence), and the sentinel acknowledged\(at(observation.ackTimes[sentinel.rawValue])) on the same connection"
        case let .sentinelAck(sentinel, .noAckOrFatal(sequence, _, _)):
            if observation.closed { return "the close by the target\(at(now)), a refusal the brief allows" }
            return "no ACK of \(sequence), the frame taken, and the sentinel acknowledged\(at(observation.ackTimes[sentinel.rawValue]))"
        case let .sentinelAck(_, .receipts(sequence, count)):
            return "\(count) READ_RECEIPT(s) for \(sequence)"
        case .sentinelAck(_, .silenceInsteadOf):
            return nil
        case let .promptAck(sequence, _):
            return "the ACK of \(sequence)\(at(observation.ackTimes[sequence.rawValue]))"
        case let .fatal(_, _, mark, _), let .close(_, mark):
            let error = observation.errorReport(since: mark).map { "ERROR \($0.code) \(ErrorCode(rawValue: $0.code)?.name ?? ""), then " } ?? ""
            return "\(error)the close by the target\(at(now))"
        case let .ackOrFatal(sequence, _, _, mark):
            if let report = observation.errorReport(since: mark) { return "ERROR \(report.code) \(ErrorCode(rawValue: report.code)?.name ?? "") (a refusal the brief allows)" }
            return "an ACK of \(sequence)\(at(observation.ackTimes[sequence.rawValue]))"
        case let .versionResponse(_, sequence, _, mark):
            guard let (_, response) = observation.response(since: mark) else { return nil }
            return "VERSION_RESPONSE \(response.version), features \(response.features), and the ACK of \(sequence)\(at(observation.ackTimes[sequence.rawValue]))"
        case .closeAfterResponse:
            return "the close after the response\(at(now))"
        case .receipts:
            return nil
        case .idleClose:
            return "the idle close by the target\(at(now))"
        }
    }

    /// A failure when the close without an ERROR came only once the connection had been idle for
    /// the target's idle timeout: a target that took what it had to refuse in silence is closed
    /// as idle at last, and that close is no refusal (with --idle-timeout at or under --timeout,
    /// it would otherwise pass).
    private func idleClose(expected: String) -> Verdict? {
        guard let quiet = observation.closedWhenIdle, let idle = idleTimeout else { return nil }
        return Verdict(.fail, "the target closed the connection only \(DurationText.milliseconds(quiet, decimals: 0)) after the last byte sent, "
                       + "at its idle timeout (\(DurationText.milliseconds(idle, decimals: 0))): the close of an idle connection (EX-6), not a refusal",
                       expected: expected, actual: "no ERROR, and the close of an idle connection", requirements: testCase.requirements)
    }

    private func closedVerdict(expected: String) -> Verdict {
        let error = observation.errorReport(since: 0).map { " after ERROR \($0.code) \(ErrorCode(rawValue: $0.code)?.name ?? ""): \($0.reason)" } ?? ""
        // Without an ERROR, the last frame it answered tells where the close came.
        let answered = error.isEmpty ? observation.lastAcknowledged.map { " (the last frame it answered: seq \($0), acknowledged)" } ?? "" : ""
        return Verdict(.fail, "the target closed the connection\(error)\(answered)", expected: expected, actual: "the close\(error)", requirements: testCase.requirements)
    }
}
