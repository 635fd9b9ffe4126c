import DecafWire

extension ClientJudge {
    /// The verdict of the case's own check.
    func judge(_ check: ClientCheck) -> Verdict {
        guard !observation.connections.isEmpty || Self.judgedWithoutConnection(check) else { return neverConnected }
        switch check {
        case .firstFrameIsVersionRequest: return judgeFirstFrame()
        case .requestOffersBasic: return judgeOffer()
        case .headersBeforeAgreement: return judgeHeadersBeforeAgreement()
        case .messagesAcknowledged: return judgeMessagesAcknowledged()
        case let .acknowledgedOnce(sequence, session): return judgeAcknowledgedOnce(sequence, session: session)
        case .responseAcknowledgedOnce: return judgeResponseAcknowledged()
        case .noCompressedBodies: return judgeNoCompression()
        case .noReadReceipts: return judgeNoReadReceipts()
        case let .readReceiptFor(sequence): return judgeReadReceipts(for: sequence)
        case .stopsAfterOtherMajor: return judgeOtherMajor()
        case .retriesUnansweredHandshake: return judgeUnansweredHandshake()
        case let .delivered(payloads): return judgeDelivered(payloads)
        case let .notAcknowledged(sequence): return judgeNotAcknowledged(sequence)
        case .keptOpen: return judgeKeptOpen()
        case .neverAcksAcks: return judgeNeverAcksAcks()
        case let .acknowledgedTimes(sequence, count): return judgeAcknowledged(sequence, times: count)
        case let .serverErrorReported(code): return judgeServerError(code)
        case .receiptReported: return judgeReceiptReported()
        case let .messageBodies(payloads): return judgeBodies(payloads)
        case .sequencesDistinct: return judgeSequencesDistinct()
        case let .repeatAcrossConnections(sequence, payload): return judgeRepeatAcrossConnections(sequence, payload: payload)
        case let .noReceiptForRepeat(sequence): return judgeNoReceiptForRepeat(sequence)
        case let .resend(aspect): return judgeResend(aspect)
        case let .givesUp(aspect): return judgeGivingUp(aspect)
        case .noResendAfterAck: return judgeNoResendAfterAck()
        case .lateAckHarmless: return judgeLateAck()
        case .onlyUnacknowledgedResent: return judgeOnlyUnacknowledgedResent()
        case .reconnects: return judgeReconnects()
        case .backoffGrows: return judgeBackoffGrows()
        case .backoffCapped: return judgeBackoffCapped()
        case .noHammering: return judgeNoHammering()
        case .jitter: return judgeJitter()
        case .handshakesAgain: return judgeHandshakesAgain()
        case .messageSettled: return judgeMessageSettled()
        case .resendsOnNewConnection: return judgeResendOnNewConnection()
        case .heartbeats: return judgeHeartbeats()
        case .heartbeatSequences: return judgeHeartbeatSequences()
        case .deadServerNoticed: return judgeDeadServer()
        case let .refuses(code, sequence): return judgeRefusal(code, sequence: sequence)
        case let .acceptsOrRefuses(sequence, code, acknowledged): return judgeAcceptOrRefusal(sequence, code, acknowledged: acknowledged)
        case .truncatedIgnored: return judgeTruncated()
        case let .takes(sequence, session, acknowledged, payload): return judgeTaking(sequence, session: session, acknowledged: acknowledged, payload: payload)
        case .categories: return judgeCategories()
        case .countersIncrement: return judgeCounters()
        case .timestampsPlausible: return judgeTimestamps()
        }
    }

    /// Checks that judge a client that gave up before connecting, or never needed to.
    private static func judgedWithoutConnection(_ check: ClientCheck) -> Bool {
        switch check {
        case .messageSettled, .stopsAfterOtherMajor: true
        default: false
        }
    }

    // MARK: - Handshake

    private func judgeFirstFrame() -> Verdict {
        guard let first = observation.connections[0].frames.first else {
            return fail("the client connected but wrote no frame", expected: "CONTROL with VERSION_REQUEST", actual: "nothing")
        }
        guard Self.isVersionRequest(first.frame) else {
            return fail("the first frame is not CONTROL carrying a VERSION_REQUEST", expected: "CONTROL [VERSION_REQUEST]", actual: Self.describe(first.frame))
        }
        return pass("the first frame is \(Self.describe(first.frame))")
    }

    private func judgeOffer() -> Verdict {
        guard let offer else { return fail("the client sent no VERSION_REQUEST", expected: "a VERSION_REQUEST", actual: "none") }
        guard offer.version.major == 1, offer.features.contains(.basic) else {
            return fail("the VERSION_REQUEST offers \(offer.version) with \(offer.features)", expected: "major 1 with BASIC",
                        actual: "\(offer.version) with \(offer.features)")
        }
        return pass("the VERSION_REQUEST offers \(offer.version) with \(offer.features)")
    }

    private func judgeHeadersBeforeAgreement() -> Verdict {
        let connection = observation.connections[0]
        let responseWritten = connection.writes.first { write in write.headers.contains { $0.sequence == connection.responseSequence && $0.messageType == .control } }?.time
        let before = connection.frames.filter { $0.time < (responseWritten ?? .seconds(1 << 40)) }
        guard !before.isEmpty else { return fail("the client wrote no frame before the VERSION_RESPONSE", expected: "a VERSION_REQUEST", actual: "none") }
        if let other = before.first(where: { $0.frame.header.version != .v1_0 }) {
            return fail("a frame written before the handshake completed carries version \(other.frame.header.version)",
                        expected: "version 1.0 until the VERSION_RESPONSE", actual: Self.describe(other.frame))
        }
        return pass("\(before.count) frame(s) before the VERSION_RESPONSE, all of version 1.0")
    }

    func judgeMessagesAcknowledged() -> Verdict {
        let acknowledged = observation.ids("acknowledged")
        let failed = observation.ids("failed")
        for message in testCase.messages {
            let count = acknowledged.count { $0 == message.id }
            if failed.contains(message.id) {
                return fail("the client reported message \(message.id) failed though the server acknowledged every DATA frame",
                            expected: "acknowledged", actual: "failed")
            }
            if count > 1 { return fail("the client reported message \(message.id) acknowledged \(count) times", expected: "once", actual: "\(count) times") }
            if count == 0 {
                if observation.dataFrames.isEmpty {
                    let answered = observation.connections[0].answered != nil
                    return fail(answered ? "the client never sent its message after the handshake was answered" : "the client never sent its message",
                                expected: "a DATA frame, then an acknowledged event", actual: "no DATA frame")
                }
                return fail("the client never reported message \(message.id) acknowledged, though the server acknowledged every DATA frame",
                            expected: "an acknowledged event for \(message.id)", actual: "none")
            }
        }
        let compressed = observation.dataFrames.contains { $0.frame.header.compressType == .zlib } ? " (bodies compressed)" : ""
        return pass("every message (\(testCase.messages.count)) was acknowledged once\(compressed)")
    }

    /// On the first connection, where the case's frames are sent.
    private func judgeAcknowledgedOnce(_ sequence: SequenceNumber, session: SessionID) -> Verdict {
        let acks = observation.connections[caseConnection].acks(of: sequence)
        guard let ack = acks.first else {
            return sentinelAcknowledged() ? fail("no ACK of \(sequence), though the DATA frame after it was acknowledged", expected: "one ACK of \(sequence)", actual: "none")
                : fail("no ACK of \(sequence)", expected: "one ACK of \(sequence)", actual: "none")
        }
        if acks.count > 1 {
            return fail("\(acks.count) ACKs of \(sequence): a frame gets exactly one", expected: "one ACK", actual: "\(acks.count) ACKs",
                        requirements: Array(Set(testCase.requirements + [.ex1])).sorted { $0.rawValue < $1.rawValue })
        }
        let header = ack.frame.header
        if header.sessionID != session {
            return fail("the ACK of \(sequence) carries session \(Hex.format(header.sessionID.rawValue, width: 4)), not the frame's",
                        expected: "session \(Hex.format(session.rawValue, width: 4))", actual: "session \(Hex.format(header.sessionID.rawValue, width: 4))",
                        requirements: [.session1, .ex1])
        }
        if header.bodyLength != 0 || header.checksum != 0 || header.encryptType != .none || header.compressType != .none {
            return fail("the ACK of \(sequence) is not in EX-1's form", expected: "empty body, checksum 0, no encryption or compression flag",
                        actual: "body_length \(header.bodyLength), checksum \(Hex.word(header.checksum)), encrypt_type \(header.encryptType), compress_type \(header.compressType)",
                        requirements: [.ex1])
        }
        guard sentinelAcknowledged() || !scriptSendsSentinel else { return sentinelMissing }
        return pass("one ACK of \(sequence), session \(Hex.format(session.rawValue, width: 4)), in EX-1's form")
    }

    private func judgeResponseAcknowledged() -> Verdict {
        let connection = observation.connections[0]
        guard let sequence = connection.responseSequence else {
            return fail("the client sent no VERSION_REQUEST, so there was no VERSION_RESPONSE to acknowledge", expected: "a VERSION_REQUEST", actual: "none")
        }
        let session = connection.frames.first { Self.isVersionRequest($0.frame) }?.frame.header.sessionID ?? SessionID(rawValue: 0)
        return judgeAcknowledgedOnce(sequence, session: session)
    }

    private func judgeNoCompression() -> Verdict {
        if let compressed = observation.dataFrames.first(where: { $0.frame.header.compressType != .none }) {
            return fail("the client compressed a body though the handshake did not agree to COMPRESSION",
                        expected: "compress_type 0", actual: Self.describe(compressed.frame) + " with compress_type \(compressed.frame.header.compressType)")
        }
        return judgeMessagesAcknowledged()
    }

    private func judgeNoReadReceipts() -> Verdict {
        if let receipt = observation.frames.first(where: { $0.frame.header.messageType == .readReceipt }) {
            return fail("the client sent a READ_RECEIPT though the handshake did not agree to READ_RECEIPT",
                        expected: "no READ_RECEIPT", actual: Self.describe(receipt.frame))
        }
        guard sentinelAcknowledged() else { return sentinelMissing }
        return pass("no READ_RECEIPT without READ_RECEIPT agreed")
    }

    private func judgeReadReceipts(for sequence: SequenceNumber) -> Verdict {
        let receipts = observation.frames.filter { $0.frame.header.messageType == .readReceipt }
        guard sentinelAcknowledged() else { return sentinelMissing }
        guard !receipts.isEmpty else { return pass("the client sends no READ_RECEIPT of its own, which the brief leaves to it") }
        let named = receipts.filter { received in
            received.frame.fields.contains { if case let .readReceipt(receipt) = $0.interpreted { receipt.sequence == sequence } else { false } }
        }
        guard named.count == 1 else {
            return fail("the client sent \(named.count) READ_RECEIPT(s) naming \(sequence) (and \(receipts.count - named.count) naming others)",
                        expected: "one, naming \(sequence)", actual: receipts.map { Self.describe($0.frame) }.joined(separator: "; "))
        }
        return pass("one READ_RECEIPT naming \(sequence)", notes: named[0].frame.hasSequenceCategoryMismatch
            ? [("its sequence \(named[0].frame.header.sequence) is not in the NORMAL category", .seq2)] : [])
    }

    private func judgeOtherMajor() -> Verdict {
        let failed = observation.ids("failed")
        let gaveUp = testCase.messages.allSatisfy { failed.contains($0.id) } || observation.exits.contains(.status(0))
        if observation.connections.count > 2 {
            return fail("the client connected \(observation.connections.count) times to a server that speaks another major",
                        expected: "at most one more attempt, then its messages given up", actual: "\(observation.connections.count) connections")
        }
        guard gaveUp else {
            return fail("the client neither gave its message up nor stopped after a VERSION_RESPONSE of another major",
                        expected: "a failed event for each message, or an exit", actual: "still waiting")
        }
        return pass("the client gave up after a VERSION_RESPONSE of another major")
    }

    private func judgeUnansweredHandshake() -> Verdict {
        let connection = observation.connections[0]
        guard let request = connection.frames.first(where: { Self.isVersionRequest($0.frame) }) else {
            return fail("the client sent no VERSION_REQUEST", expected: "a VERSION_REQUEST", actual: "none")
        }
        let resend = connection.frames.first { $0.time > request.time && $0.frame.header.sequence == request.frame.header.sequence }?.time
        let reconnect = observation.connections.dropFirst().first?.opened
        let allowed = TimingTolerance.bounds(settings.ackTimeout)
        guard let next = [resend, reconnect].compactMap({ $0 }).min() else {
            return fail("no VERSION_REQUEST again and no new connection within \(Self.text(observation.ended.map { $0 - request.time } ?? .zero))",
                        expected: "either after about \(Self.text(settings.ackTimeout))", actual: "neither")
        }
        let wait = next - request.time
        guard wait <= allowed.upperBound, resend != next || wait >= allowed.lowerBound else {
            return fail("the unanswered VERSION_REQUEST was followed up after \(Self.text(wait)); the client's ACK timeout is \(Self.text(settings.ackTimeout))",
                        expected: "\(Self.text(allowed.lowerBound)) to \(Self.text(allowed.upperBound))", actual: Self.text(wait))
        }
        return pass(resend == next ? "the VERSION_REQUEST was sent again after \(Self.text(wait))" : "a new connection was made after \(Self.text(wait))")
    }

    // MARK: - Exchange

    private func judgeDelivered(_ expected: [[UInt8]]) -> Verdict {
        let delivered = observation.delivered
        let shown = { (payloads: [[UInt8]]) in payloads.isEmpty ? "none" : payloads.map { Self.describe(payload: $0) }.joined(separator: ", ") }
        guard delivered != expected else { return pass("the client delivered exactly the \(expected.count) payload(s) expected: \(shown(delivered))") }
        // A repeat delivered again is a payload the server sent, delivered more often than sent
        // anew; one the server never sent (a body mangled on the way to the application) is not.
        if let twice = delivered.first(where: { payload in expected.contains(payload) && delivered.count { $0 == payload } > expected.count { $0 == payload } }) {
            return fail("the client delivered \(Self.describe(payload: twice)) more often than the server sent it anew",
                        expected: shown(expected), actual: shown(delivered), requirements: [.replay1])
        }
        return fail("the client delivered other payloads than the server sent", expected: shown(expected), actual: shown(delivered))
    }

    private func judgeNotAcknowledged(_ sequence: SequenceNumber) -> Verdict {
        let acks = observation.connections[caseConnection].acks(of: sequence)
        if !acks.isEmpty {
            return fail("the client acknowledged \(sequence), which must never be acknowledged", expected: "no ACK", actual: "\(acks.count) ACK(s)",
                        requirements: [.ex3])
        }
        guard sentinelAcknowledged(on: caseConnection) else { return sentinelMissing }
        return pass("no ACK of \(sequence), and the connection stayed open")
    }

    private func judgeKeptOpen() -> Verdict {
        guard sentinelAcknowledged(on: caseConnection) else { return sentinelMissing }
        return pass("the connection stayed open: the next DATA frame was acknowledged on it")
    }

    private func judgeNeverAcksAcks() -> Verdict {
        for connection in observation.connections {
            var owed: [UInt32: Int] = [:]
            var serverAcks: Set<UInt32> = []
            for header in connection.writes.flatMap(\.headers) {
                if header.messageType.isAcknowledged { owed[header.sequence.rawValue, default: 0] += 1 }
                if header.messageType == .ack { serverAcks.insert(header.sequence.rawValue) }
            }
            let acks = Dictionary(grouping: connection.frames(.ack), by: \.frame.header.sequence.rawValue)
            for (sequence, sent) in acks.sorted(by: { $0.key < $1.key }) where sent.count > owed[sequence, default: 0] {
                let number = SequenceNumber(rawValue: sequence)
                if serverAcks.contains(sequence) {
                    return fail("the client acknowledged the server's ACK of \(number)", expected: "no ACK of an ACK",
                                actual: "\(sent.count) ACK(s) of \(number)", requirements: [.ex3])
                }
                return fail("the client sent \(sent.count) ACK(s) of \(number), which the server sent \(owed[sequence, default: 0]) frame(s) with",
                            expected: "one ACK per frame", actual: "\(sent.count)", requirements: [.ex1])
            }
        }
        guard sentinelAcknowledged() else { return sentinelMissing }
        let acks = observation.connections.flatMap(\.writes).flatMap(\.headers).count { $0.messageType == .ack }
        return pass("no ACK of any of the server's \(acks) ACK(s), and the DATA frame after them acknowledged")
    }

    private func judgeAcknowledged(_ sequence: SequenceNumber, times count: Int) -> Verdict {
        let acks = observation.connections[caseConnection].acks(of: sequence)
        guard sentinelAcknowledged() else { return sentinelMissing }
        guard acks.count == count else {
            return fail("\(acks.count) ACK(s) of \(sequence), sent \(count) times", expected: "\(count) ACKs", actual: "\(acks.count)")
        }
        return pass("\(count) ACKs of \(sequence), one per copy")
    }

    private func judgeServerError(_ code: UInt16) -> Verdict {
        let reported = observation.reports.compactMap { if case let .serverError(code, _) = $0.event { code } else { nil } }
        guard !reported.isEmpty else {
            return fail("the client did not report the server's ERROR", expected: "a serverError event with code \(code)", actual: "none")
        }
        guard reported.contains(Int(code)) else {
            return fail("the client reported the server's ERROR with another code", expected: "code \(code)", actual: reported.map(String.init).joined(separator: ", "))
        }
        return pass("the client reported the server's ERROR \(code)")
    }

    private func judgeReceiptReported() -> Verdict {
        guard observation.ids("receipt").contains(testCase.messages.first?.id ?? "") else {
            return fail("the client did not report the server's READ_RECEIPT for its message", expected: "a receipt event", actual: "none")
        }
        return pass("the READ_RECEIPT of message \(testCase.messages.first?.id ?? "") was reported")
    }

    private func judgeBodies(_ expected: [[UInt8]]) -> Verdict {
        let bodies = firstSends.map { Array($0.frame.payload) }
        guard bodies == expected else {
            return fail("the DATA bodies differ from the messages' TLV bytes",
                        expected: expected.map { Hex.string($0.prefix(64)) }.joined(separator: "; "),
                        actual: bodies.map { Hex.string($0.prefix(64)) }.joined(separator: "; "))
        }
        return judgeMessagesAcknowledged()
    }

    private func judgeSequencesDistinct() -> Verdict {
        var owner: [UInt32: [UInt8]] = [:]
        for received in firstSendsByBody() {
            let sequence = received.frame.header.sequence.rawValue
            if let other = owner[sequence], other != Array(received.frame.payload) {
                return fail("two different messages went out as \(received.frame.header.sequence)", expected: "a sequence per message",
                            actual: "\(Self.describe(payload: other)) and \(Self.describe(payload: Array(received.frame.payload)))")
            }
            owner[sequence] = Array(received.frame.payload)
        }
        return judgeMessagesAcknowledged()
    }

    /// The first DATA frame of each distinct body, in order.
    func firstSendsByBody() -> [ClientObservation.Received] {
        var seen: Set<[UInt8]> = []
        return observation.dataFrames.sorted { $0.time < $1.time }.filter { seen.insert(Array($0.frame.payload)).inserted }
    }

    // MARK: - Sequences and time

    private func judgeCategories() -> Verdict {
        guard !observation.dataFrames.isEmpty else { return fail("the client sent no DATA frame", expected: "DATA frames", actual: "none") }
        let odd = observation.frames.filter(\.frame.hasSequenceCategoryMismatch)
        return pass("every frame's sequence category fits its type", notes: odd.prefix(3).map {
            ("\(Self.describe($0.frame)) has a sequence category that does not fit its type", .seq2)
        })
    }

    private func judgeCounters() -> Verdict {
        let counters = firstSends.map(\.frame.header.sequence.counter)
        guard counters.count >= 2 else { return fail("the client sent \(counters.count) message(s)", expected: "10 DATA frames", actual: "\(counters.count)") }
        let jumps = zip(counters, counters.dropFirst()).filter { $1 != ($0 + 1) & SequenceNumber.maxCounter }
        return pass("the DATA counters go up by one", notes: jumps.isEmpty ? [] : [
            ("the counters jump (\(counters.map(String.init).joined(separator: ", "))); receivers cope, but the brief adds 1 per frame", .seq1),
        ])
    }

    private func judgeTimestamps() -> Verdict {
        for received in observation.frames {
            let clock = Int64(observation.startedAt) + received.time.components.seconds
            let off = Int64(received.frame.header.timestamp) - clock
            if abs(off) > 60 {
                let cause = abs(off) > 86_400 ? " (timestamps are UNIX seconds: milliseconds or another epoch look like this)" : ""
                return fail("the client stamped a frame \(off) s from the suite's clock: a server with TS-1's 60 s window refuses it" + cause,
                            expected: "within 60 s of \(clock)", actual: "\(received.frame.header.timestamp) (\(Self.describe(received.frame)))")
            }
        }
        return pass("every timestamp is within a minute of the suite's clock")
    }
}
