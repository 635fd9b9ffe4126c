import DecafWire

/// The checks about time: retransmission (EX-7), reconnecting and heartbeats. Every wait is judged
/// against the client's own settings with `TimingTolerance`.
extension ClientJudge {
    private var message: ClientCase.Message { testCase.messages.first ?? ClientCaseSteps.message }

    // MARK: - Retransmission

    func judgeResend(_ aspect: ClientCheck.ResendAspect) -> Verdict {
        let data = observation.connections[0].frames(.data)
        guard let first = data.first else { return fail("the client never sent its message", expected: "a DATA frame", actual: "none") }
        guard data.count >= 2 else {
            return fail("the client sent its unacknowledged message once and never again", expected: "a resend after \(Self.text(settings.ackTimeout))",
                        actual: "one DATA frame in \(Self.text((observation.ended ?? first.time) - first.time))")
        }
        // The resend EX-7 is about comes once the ACK timeout has run out: a copy sent at once (a
        // client sending twice under loss) is not it, and judging it would pass a resend it never saw.
        // The timer ran from the first send, which came no earlier than the handshake's answer: on
        // a loaded machine the suite may read the first copy late, never the answer early.
        let earliest = TimingTolerance.bounds(settings.ackTimeout).lowerBound
        let timerStart = min(first.time, observation.connections[0].answered ?? first.time)
        let candidates = data.dropFirst().filter { $0.time - timerStart >= earliest }
        guard let timed = candidates.first else {
            let copies = data.dropFirst().map { $0.time - first.time }
            return fail("the client sent its message again only \(Self.texts(copies)) after the first send, before its ACK timeout, and never after it",
                        expected: "a resend after \(Self.text(settings.ackTimeout))", actual: "\(copies.count) early cop\(copies.count == 1 ? "y" : "ies"), no resend")
        }
        // What the resend carries is judged on every copy that could be it: a client's copies of
        // one message are all the same frame, and one that is not breaks the aspect whichever the
        // suite takes for the resend (a client held up past its ACK timeout sends its message and
        // a copy at once, and resends with another timestamp only after them).
        let resend = aspect == .afterTimeout ? timed : candidates.first { !Self.keeps(aspect, of: first.frame.header, first.frame.payload, in: $0) } ?? timed
        let copies = data.prefix { $0.time < resend.time }.count - 1
        let besides = copies > 0 ? " (the \(copies) cop\(copies == 1 ? "y" : "ies") sent before its ACK timeout are not resends)" : ""
        let (original, resent) = (first.frame.header, resend.frame.header)
        let after = "the resend \(Self.text(resend.time - first.time)) after the first send\(besides)"
        switch aspect {
        case .sameSequence:
            guard resent.sequence == original.sequence else {
                return fail("the client sent the message again under a new sequence (\(after))", expected: "\(original.sequence)", actual: "\(resent.sequence)")
            }
            return pass("the message went out again as \(resent.sequence) (\(after))")
        case .sameBody:
            guard resend.frame.payload == first.frame.payload else {
                return fail("the resent DATA frame carries another body (\(after))", expected: Hex.string(first.frame.payload.prefix(64)),
                            actual: Hex.string(resend.frame.payload.prefix(64)))
            }
            return pass("the resent DATA frame carries the same body (\(after))")
        case .sameTimestamp:
            guard resent.timestamp == original.timestamp else {
                return fail("the resent DATA frame carries another timestamp, so a server keeping REPLAY-1 takes it for a new message (\(after))",
                            expected: "\(original.timestamp)", actual: "\(resent.timestamp)")
            }
            return pass("the resent DATA frame carries the same timestamp (\(after))")
        case .afterTimeout:
            let wait = resend.time - first.time
            let allowed = TimingTolerance.bounds(settings.ackTimeout)
            guard allowed.contains(wait) else {
                return fail("the client sent again after \(Self.text(wait)); its ACK timeout is \(Self.text(settings.ackTimeout))\(besides)",
                            expected: "\(Self.text(allowed.lowerBound)) to \(Self.text(allowed.upperBound))", actual: Self.text(wait))
            }
            return pass("sent again after \(Self.text(wait)), its ACK timeout being \(Self.text(settings.ackTimeout))\(besides)")
        }
    }

    /// Whether `copy` keeps what `aspect` asks of a resend of the frame with `header` and `payload`.
    private static func keeps(_ aspect: ClientCheck.ResendAspect, of header: FrameHeader, _ payload: ArraySlice<UInt8>, in copy: ClientObservation.Received) -> Bool {
        switch aspect {
        case .sameSequence: copy.frame.header.sequence == header.sequence
        case .sameBody: copy.frame.payload == payload
        case .sameTimestamp: copy.frame.header.timestamp == header.timestamp
        case .afterTimeout: true
        }
    }

    func judgeGivingUp(_ aspect: ClientCheck.GiveUpAspect) -> Verdict {
        let sends = sends(of: message)
        guard let last = sends.last else { return fail("the client never sent its message", expected: "a DATA frame", actual: "none") }
        let failed = observation.reports.first { if case let .failed(id, _) = $0.event { id == message.id } else { false } }
        let expected = 1 + settings.retries
        switch aspect {
        case .sendCount:
            if sends.count > expected {
                return fail("the client sent the message \(sends.count) times, more than once plus its \(settings.retries) retries",
                            expected: "\(expected) sends", actual: "\(sends.count) sends")
            }
            if sends.count < expected {
                return fail(failed == nil ? "the client sent the message \(sends.count) time(s) and then no more" : "the client gave up after \(sends.count) send(s)",
                            expected: "\(expected) sends (once, then \(settings.retries) retries)", actual: "\(sends.count)")
            }
            return pass("sent \(expected) times: once, then \(settings.retries) retries")
        case .reported:
            guard failed != nil else {
                return fail("the client never reported the unacknowledged message failed", expected: "a failed event for \(message.id)", actual: "none")
            }
            if observation.ids("acknowledged").contains(message.id) {
                return fail("the client reported a message acknowledged that never was", expected: "failed", actual: "acknowledged")
            }
            return pass("the message was reported failed after \(sends.count) send(s)")
        case .afterLastTimeout:
            guard let failed else {
                return fail("the client never reported the unacknowledged message failed", expected: "a failed event for \(message.id)", actual: "none")
            }
            let wait = failed.time - last.time
            guard wait >= TimingTolerance.bounds(settings.ackTimeout).lowerBound else {
                return fail("the client gave up \(Self.text(wait)) after its last send, before that send's ACK could come",
                            expected: "at least \(Self.text(settings.ackTimeout))", actual: Self.text(wait))
            }
            return pass("gave up \(Self.text(wait)) after its last send")
        }
    }

    func judgeNoResendAfterAck() -> Verdict {
        let sends = sends(of: message)
        guard let first = sends.first else { return fail("the client never sent its message", expected: "a DATA frame", actual: "none") }
        guard sends.count == 1 else {
            return fail("the client sent its message again \(Self.text(sends[1].time - first.time)) after the first send, though it was acknowledged",
                        expected: "one DATA frame", actual: "\(sends.count) DATA frames")
        }
        return pass("one DATA frame, nothing sent again after its ACK")
    }

    func judgeLateAck() -> Verdict {
        let sends = sends(of: message)
        let acknowledged = observation.ids("acknowledged").count { $0 == message.id }
        guard sends.count == 2 else {
            return fail("the client sent its message \(sends.count) time(s); after one resend both ACKs came", expected: "2 sends", actual: "\(sends.count)")
        }
        guard acknowledged == 1, !observation.ids("failed").contains(message.id) else {
            return fail("the client reported its message acknowledged \(acknowledged) time(s)", expected: "once", actual: "\(acknowledged)")
        }
        let verdict = judge(.neverAcksAcks)
        return verdict.kind == .pass ? pass("the late ACK changed nothing: acknowledged once, sent twice, the connection alive") : verdict
    }

    func judgeOnlyUnacknowledgedResent() -> Verdict {
        let messages = testCase.messages
        guard messages.count == 2 else { return fail("the case needs two messages") }
        let counts = messages.map { sends(of: $0).count }
        guard counts == [1, 2] else {
            return fail("the messages went out \(counts[0]) and \(counts[1]) time(s); only the second's ACK was withheld once",
                        expected: "1 and 2", actual: "\(counts[0]) and \(counts[1])")
        }
        return judgeMessagesAcknowledged()
    }

    // MARK: - Reconnecting

    /// The reconnect checks need the client to try several times in a case's time.
    private var reconnectsTooSlowly: Verdict? {
        guard settings.reconnectMax > .seconds(5) else { return nil }
        return Verdict(.unsupported, "the client waits up to \(Self.text(settings.reconnectMax)) between attempts; the case needs at most 5 s",
                       requirements: testCase.requirements)
    }

    /// The waits between a connection the server closed and the next attempt.
    private var waits: [Duration] {
        zip(observation.connections, observation.connections.dropFirst()).compactMap { previous, next in
            previous.closed.map { next.opened - $0 }
        }
    }

    func judgeReconnects() -> Verdict {
        let refusedAtStart = testCase.script.refusedAtStart
        let refusal = testCase.script.connection(0).steps.lazy.compactMap { if case let .refuseConnections(duration) = $0 { duration } else { nil } }.first
        let allowed = TimingTolerance.bounds(settings.reconnectMax)
        if let refusedAtStart {
            let opened = observation.connections[0].opened
            guard opened <= refusedAtStart + allowed.upperBound else {
                return fail("the client connected \(Self.text(opened - refusedAtStart)) after connections were no longer refused",
                            expected: "within \(Self.text(allowed.upperBound))", actual: Self.text(opened - refusedAtStart))
            }
            return pass("connected \(Self.text(opened - refusedAtStart)) after connections were no longer refused")
        }
        guard let lost = observation.connections[0].closed else { return fail("the first connection never ended", expected: "a close", actual: "open") }
        guard observation.connections.count >= 2 else {
            return fail("the client did not connect again", expected: "a new connection within \(Self.text((refusal ?? .zero) + allowed.upperBound))",
                        actual: "none in \(Self.text((observation.ended ?? lost) - lost))")
        }
        let wait = observation.connections[1].opened - lost - (refusal ?? .zero)
        guard wait <= allowed.upperBound else {
            return fail("the client connected again \(Self.text(wait)) after it could; its longest wait is \(Self.text(settings.reconnectMax))",
                        expected: "within \(Self.text(allowed.upperBound))", actual: Self.text(wait))
        }
        return pass("connected again \(Self.text(wait)) after it could")
    }

    func judgeBackoffGrows() -> Verdict {
        if let reconnectsTooSlowly { return reconnectsTooSlowly }
        let waits = waits
        guard waits.count >= 5, let first = waits.first, let last = waits.last else {
            return Verdict(.timeout, "the client made \(waits.count) attempt(s) after the server closed; the case needs 5", requirements: testCase.requirements)
        }
        let floor = settings.reconnectBase * 2 - TimingTolerance.early
        guard last >= floor, last * 2 >= first * 3 else {
            return fail("the waits between attempts do not grow", expected: "the last at least 1.5 times the first, and at least \(Self.text(floor))",
                        actual: "waits of " + Self.texts(waits))
        }
        return pass("the waits grow: " + Self.texts(waits))
    }

    func judgeBackoffCapped() -> Verdict {
        if let reconnectsTooSlowly { return reconnectsTooSlowly }
        let waits = waits
        let allowed = TimingTolerance.bounds(settings.reconnectMax)
        let pending = observation.connections.last.flatMap { last in last.closed.map { (observation.ended ?? $0) - $0 } } ?? .zero
        if let longest = (waits + [pending]).max(), longest > allowed.upperBound {
            return fail("the client waited \(Self.text(longest)) between attempts; its longest wait is \(Self.text(settings.reconnectMax))",
                        expected: "at most \(Self.text(allowed.upperBound))", actual: "waits of " + Self.texts(waits + (pending > .zero ? [pending] : [])))
        }
        guard waits.count >= 7 else {
            return Verdict(.timeout, "the client made \(waits.count) attempt(s) after the server closed; the case needs 7", requirements: testCase.requirements)
        }
        return pass("no wait longer than \(Self.text(settings.reconnectMax)): " + Self.texts(waits))
    }

    func judgeNoHammering() -> Verdict {
        let start = observation.connections[0].opened
        let attempts = observation.connections.count { $0.opened - start < .seconds(1) }
        guard attempts <= 10 else {
            return fail("the client connected \(attempts) times in a second to a server that closes every connection at once",
                        expected: "at most 10", actual: "\(attempts)")
        }
        // A client that never came back shows nothing about how fast it comes back.
        guard observation.connections.count >= 2 else {
            return Verdict(.unsupported, "the client did not connect again after the server closed its connection, so its pace of attempts cannot be judged",
                           requirements: testCase.requirements)
        }
        return pass("\(attempts) connection(s) in the first second")
    }

    func judgeJitter() -> Verdict {
        let instances = testCase.instances
        let returns = observation.connections.dropFirst(instances).prefix(instances).map(\.opened)
        guard returns.count == instances, let first = returns.min(), let last = returns.max() else {
            return Verdict(.timeout, "\(returns.count) of \(instances) clients connected again", requirements: testCase.requirements)
        }
        let spread = last - first
        let needed = max(.milliseconds(50), settings.reconnectBase / 10)
        guard spread >= needed else {
            return fail("\(instances) clients cut off together came back within \(Self.text(spread)) of each other: their waits carry no jitter",
                        expected: "spread over at least \(Self.text(needed))", actual: Self.text(spread))
        }
        return pass("\(instances) clients cut off together came back over \(Self.text(spread))")
    }

    func judgeHandshakesAgain() -> Verdict {
        guard observation.connections.count >= 2 else {
            return fail("the client did not connect again", expected: "a second connection", actual: "none")
        }
        guard let first = observation.connections[1].frames.first else {
            return fail("the client wrote nothing on its new connection", expected: "a VERSION_REQUEST", actual: "nothing")
        }
        guard Self.isVersionRequest(first.frame) else {
            return fail("the new connection does not start with a VERSION_REQUEST", expected: "CONTROL [VERSION_REQUEST]", actual: Self.describe(first.frame))
        }
        return pass("the new connection starts with \(Self.describe(first.frame))")
    }

    func judgeMessageSettled() -> Verdict {
        let acknowledged = observation.ids("acknowledged").count { $0 == message.id }
        let failed = observation.ids("failed").count { $0 == message.id }
        switch (acknowledged, failed) {
        case (1, 0): return pass("the message cut off was acknowledged on a new connection")
        case (0, 1): return pass("the message cut off was reported failed")
        case (0, 0):
            return fail("the message cut off by the lost connection was neither acknowledged nor reported failed",
                        expected: "an acknowledged or failed event", actual: "neither")
        default:
            return fail("the message was reported acknowledged \(acknowledged) and failed \(failed) time(s)", expected: "one of them, once",
                        actual: "\(acknowledged) and \(failed)")
        }
    }

    func judgeResendOnNewConnection() -> Verdict {
        guard let original = observation.connections[0].frames(.data).first else {
            return fail("the client never sent its message", expected: "a DATA frame", actual: "none")
        }
        guard observation.connections.count >= 2, let again = observation.connections[1].frames(.data).first(where: { $0.frame.payload == original.frame.payload }) else {
            return fail("the message was not sent on the new connection", expected: "the DATA frame again", actual: "none")
        }
        let (before, after) = (original.frame.header, again.frame.header)
        guard before.sequence == after.sequence, before.timestamp == after.timestamp else {
            return fail("the message went out on the new connection under another sequence or timestamp, so the server cannot tell it is a repeat",
                        expected: "\(before.sequence) at \(before.timestamp)", actual: "\(after.sequence) at \(after.timestamp)")
        }
        return pass("the message went out again as \(after.sequence) with its timestamp")
    }

    // MARK: - Heartbeats

    private var heartbeatInterval: Duration? { settings.heartbeat }

    private var noHeartbeats: Verdict {
        Verdict(.unsupported, "the client sends no heartbeats (its ready line gives no heartbeatMs)", requirements: testCase.requirements)
    }

    func judgeHeartbeats() -> Verdict {
        guard let interval = heartbeatInterval else { return noHeartbeats }
        let beats = observation.connections[0].frames(.heartbeat)
        let span = (observation.ended ?? .zero) - (observation.connections[0].answered ?? .zero)
        let gaps = zip(beats, beats.dropFirst()).map { $1.time - $0.time }
        guard beats.count >= 3 else {
            if let churn = connectionChurn {
                return fail("the client did not keep its idle connection: \(churn); its heartbeat interval is \(Self.text(interval))",
                            expected: "at least 3 heartbeats on one connection", actual: "\(beats.count) on the first")
            }
            return fail("the client sent \(beats.count) heartbeat(s) in \(Self.text(span)) of silence; its interval is \(Self.text(interval))",
                        expected: "at least 3", actual: "\(beats.count)")
        }
        if let short = gaps.min(), short < interval / 2 - TimingTolerance.early {
            return fail("two heartbeats came \(Self.text(short)) apart; the interval is \(Self.text(interval))", expected: "about \(Self.text(interval)) apart",
                        actual: "gaps of " + Self.texts(gaps))
        }
        return pass("\(beats.count) heartbeats, gaps of " + Self.texts(gaps))
    }

    func judgeHeartbeatSequences() -> Verdict {
        guard heartbeatInterval != nil else { return noHeartbeats }
        let beats = observation.connections[0].frames(.heartbeat).map(\.frame.header.sequence)
        guard beats.count >= 2 else {
            let why = connectionChurn.map { "the client did not keep its idle connection: \($0)" } ?? "the client sent \(beats.count) heartbeat(s)"
            return fail(why, expected: "at least 2 heartbeats on one connection", actual: "\(beats.count) on the first")
        }
        var notes: [(String, RequirementID)] = []
        if let odd = beats.first(where: { $0.category != .heartbeat }) { notes.append(("heartbeat \(odd) is not in the HEARTBEAT category", .seq2)) }
        if zip(beats, beats.dropFirst()).contains(where: { $1.counter != ($0.counter + 1) & SequenceNumber.maxCounter }) {
            notes.append(("the heartbeat counters do not go up by one (\(beats.map(\.description).joined(separator: ", ")))", .seq1))
        }
        return pass("heartbeats \(beats.map(\.description).joined(separator: ", "))", notes: notes)
    }

    /// What the client did instead of keeping one idle connection, when it made several: who
    /// closed each and after how long, and the heartbeats on each.
    private var connectionChurn: String? {
        let connections = observation.connections
        guard connections.count > 1 else { return nil }
        let lives = connections.compactMap { connection in connection.closed.map { $0 - connection.opened } }
        let byClient = connections.count { $0.closedBy == .client }
        let average = lives.isEmpty ? Duration.zero : lives.reduce(.zero, +) / lives.count
        let beats = connections.map { String($0.frames(.heartbeat).count) }.joined(separator: ", ")
        return "it made \(connections.count) connections, \(byClient) of them closed by the client, after \(Self.text(average)) on average, "
            + "with \(beats) heartbeat(s) on each"
    }

    func judgeDeadServer() -> Verdict {
        guard let interval = heartbeatInterval else { return noHeartbeats }
        let connection = observation.connections[0]
        let silentSince = connection.answered ?? connection.opened
        let allowed = TimingTolerance.bounds(interval * 6)
        guard let closed = connection.closed, closedByClient(connection) else {
            return fail("the client kept a connection whose server stopped answering for \(Self.text((observation.ended ?? silentSince) - silentSince))",
                        expected: "a close within \(Self.text(allowed.upperBound)) (6 heartbeat intervals and the tolerance)", actual: "open")
        }
        guard closed - silentSince <= allowed.upperBound else {
            return fail("the client closed \(Self.text(closed - silentSince)) after the server stopped answering",
                        expected: "within \(Self.text(allowed.upperBound))", actual: Self.text(closed - silentSince))
        }
        return pass("closed \(Self.text(closed - silentSince)) after the server stopped answering (heartbeat interval \(Self.text(interval)))")
    }
}
