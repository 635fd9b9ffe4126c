import DecafWire

/// A client's side of the protocol, across its connections, as a pure function of what happens
/// and when: the handshake (HS-1, HS-2, VER-3), ACKs owed and received (EX-1 to EX-4), repeats
/// recognised (REPLAY-1), resending with the same sequence and timestamp and giving up after the
/// retries (EX-7), heartbeats and a dead server noticed, and reconnecting with a backoff that
/// carries jitter. Events come in with a reading of the clocks (and randomness, where a backoff is
/// drawn); actions go out for a shell to carry out: frames to write, timers to run, things to tell
/// the application. Nothing here touches a socket, reads a clock or draws a random number itself.
public struct ClientSession {
    /// How the client behaves: timeouts, retries, backoff, faults.
    public let configuration: ClientConfiguration
    /// What the session counted so far.
    public private(set) var statistics = ClientStatistics()

    /// A frame sent and owed an ACK, resent until it gets one or runs out of retries (EX-7).
    private struct Outstanding {
        /// `acknowledged`: a message's frame kept by the planted `resends-after-ack` for one more send.
        enum Kind { case message(Int), versionRequest, readReceipt, acknowledged }
        var frame: OutgoingFrame
        var kind: Kind
        var lastSent: Duration
        var sends: Int
    }

    private struct Message {
        var payload: [UInt8]
        var sequence: SequenceNumber?
        var timestamp: UInt32 = 0
        var firstSent: Duration = .zero
        var sends = 0
        var settled = false
    }

    private enum Link {
        case down
        case connecting
        /// Connected; `request` is the VERSION_REQUEST's sequence, sent at `sentAt`, until the
        /// response comes.
        case open(request: SequenceNumber, sentAt: Duration, requestAcknowledged: Bool)
        case ready
    }

    private var link = Link.down
    private var agreed: VersionResponse?
    /// The VERSION_REQUEST whose ACK has not come: it may follow the response (HS-2).
    private var unacknowledgedRequest: SequenceNumber?
    private var stopped = false
    /// Set by the planted fault `hang-at-inflate-limit`: nothing the server sends is handled again.
    private var hung = false
    private var inputEnded = false
    private var lingering = false

    private var normal = SequenceNumber(category: .normal, counter: 0)
    private var control = SequenceNumber(category: .control, counter: 0)
    private var heartbeatSequence = SequenceNumber(category: .heartbeat, counter: 0)

    private var messages: [Int: Message] = [:]
    /// Ids to send, in order; messages cut off by a lost connection go back to the front.
    private var queue: [Int] = []
    private var unsettled = 0
    private var idBySequence: [UInt32: Int] = [:]
    private var outstanding: [UInt32: Outstanding] = [:]
    private var inFlightMessages = 0
    private var retransmitDue: Duration?

    private var reconnectAttempt = 0
    /// When the current connection's handshake agreed, to tell a healthy connection from one that
    /// drops at once.
    private var readySince: Duration?
    private var lastSent: Duration = .zero
    private var lastHeard: Duration = .zero
    /// The sequence of the last DATA frame from the server (the planted `expects-contiguous-counters` wants the next).
    private var lastServerSequence: SequenceNumber?
    /// Heartbeats sent on the connection open now (the planted `dropsIdleConnection` counts them).
    private var heartbeatsOnConnection = 0
    private var replay: ReplayMemory
    /// The round-trip estimate, when the ACK timeout adapts to it.
    private var roundTrip: RoundTripEstimate?
    /// The share of messages acknowledged without a resend, smoothed: what copies are sent on.
    private var firstTimeShare = 1.0

    /// A session that has not connected yet.
    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
        replay = Self.replayMemory(configuration)
    }

    /// The ACK timeout in force: the configured one, or the one the round trip calls for.
    public var ackTimeout: Duration {
        let timeout = roundTrip?.timeout ?? configuration.ackTimeout
        return has(.impatientResend) ? timeout / 2 : timeout
    }

    /// Times each DATA frame goes out at once: one, or under measured loss as many as make it
    /// likely (95%) that one gets through, at most three.
    public var copies: Int {
        guard configuration.sendsCopiesUnderLoss, firstTimeShare < 0.9 else { return 1 }
        let lost = 1 - firstTimeShare
        var allLost = lost
        for copies in 1..<3 {
            if allLost <= 0.05 { return copies }
            allLost *= lost
        }
        return 3
    }

    /// Whether the session has stopped for good: finished, given up, or the server incompatible.
    public var isStopped: Bool { stopped }

    /// The version the client writes in its headers: 1.0 until a handshake agrees (VER-3).
    public var outgoingVersion: ProtocolVersion {
        agreed?.version ?? (has(.versionBeforeAgreed) ? ProtocolVersion(major: 1, minor: 1) : .v1_0)
    }

    private func has(_ fault: ClientFault) -> Bool { configuration.faults.contains(fault) }

    /// An empty memory of delivered frames: it spans the session's connections (REPLAY-1).
    private static func replayMemory(_ configuration: ClientConfiguration) -> ReplayMemory {
        ReplayMemory(window: configuration.replayWindow, limit: 65_536)
    }

    // MARK: - Events from the shell

    /// The client starts: it connects.
    public mutating func start(at now: SessionTime) -> [ClientAction] {
        guard case .down = link, !stopped else { return [] }
        link = .connecting
        return [.connect]
    }

    /// The connection is open: the handshake starts (HS-1, VER-3).
    public mutating func connected(at now: SessionTime) -> [ClientAction] {
        guard !stopped else { return [.close] }
        control = control.next
        let request = VersionRequest(version: configuration.version, features: configuration.features.union(.basic))
        link = .open(request: control, sentAt: now.elapsed, requestAcknowledged: false)
        unacknowledgedRequest = control
        agreed = nil
        lastHeard = now.elapsed
        heartbeatsOnConnection = 0
        if has(.forgetsRepeatsOnReconnect) { replay = Self.replayMemory(configuration) }
        let header = FrameHeader(messageType: .control, sequence: control, timestamp: now.unixSeconds, sessionID: configuration.session,
                                 version: outgoingVersion)
        var actions = [ClientAction]()
        send(OutgoingFrame(header: header, fields: [request.field]), as: .versionRequest, at: now, into: &actions)
        if let heartbeat = configuration.heartbeat { actions.append(.schedule(.heartbeat, after: heartbeat)) }
        return actions
    }

    /// No connection could be made; `random` draws the backoff's jitter. Said of a connection that
    /// was made, it is that connection lost.
    public mutating func connectFailed(at now: SessionTime, random: inout some RandomNumberGenerator) -> [ClientAction] {
        guard case .connecting = link else { return connectionLost(at: now, random: &random) }
        link = .down
        return reconnectLater(at: now, random: &random)
    }

    /// The connection closed or broke: what was in flight goes out again on the next one.
    public mutating func connectionLost(at now: SessionTime, random: inout some RandomNumberGenerator) -> [ClientAction] {
        if case .down = link { return [] }
        link = .down
        agreed = nil
        if let readySince, now.elapsed - readySince >= configuration.stableConnection { reconnectAttempt = 0 }
        readySince = nil
        guard !stopped else { return [] }
        var actions: [ClientAction] = [.cancel(.retransmit), .cancel(.heartbeat), .report(.disconnected)]
        let cutOff = outstanding.values.compactMap { pending -> Int? in
            if case let .message(id) = pending.kind { id } else { nil }
        }
        outstanding = [:]
        inFlightMessages = 0
        retransmitDue = nil
        if !has(.forgetsInFlightOnLoss) {
            queue = cutOff.sorted { (messages[$0]?.sequence?.counter ?? 0) < (messages[$1]?.sequence?.counter ?? 0) } + queue
        }
        actions += reconnectLater(at: now, random: &random)
        return actions
    }

    /// A frame from the server.
    public mutating func received(_ frame: Frame, at now: SessionTime) -> [ClientAction] {
        lastHeard = now.elapsed
        let header = frame.header
        if hung { return [] }
        if let planted = rareFault(on: frame, at: now) ?? plantedFault(on: frame, at: now) { return planted }
        var actions: [ClientAction] = []
        if header.messageType == .ack {
            acknowledgementArrived(header, at: now, into: &actions)
            if has(.acksAnAck) { acknowledge(header, at: now, into: &actions) }
            return actions
        }
        guard header.messageType.isAcknowledged else {
            if has(.closesOnUnknownType) { actions.append(.close) }
            return actions
        }
        switch header.messageType {
        case .data:
            if has(.noAckForRepeats), replay.contains(ReplayMemory.Key(header)) { return actions }
            if !has(.neverAcksServerData) { acknowledge(header, at: now, into: &actions) }
            deliver(frame, at: now, into: &actions)
        case .heartbeat:
            if !has(.noHeartbeatAck) { acknowledge(header, at: now, into: &actions) }
        case .readReceipt:
            acknowledge(header, at: now, into: &actions)
            for field in frame.fields {
                if case let .readReceipt(receipt) = field.interpreted { receiptArrived(receipt, into: &actions) }
            }
        default:
            let answersHandshake = frame.fields.contains { $0.tag == .versionResponse }
            if !(answersHandshake && has(.ignoresVersionResponse)) { acknowledge(header, at: now, into: &actions) }
            for field in frame.fields {
                switch field.interpreted {
                case let .versionResponse(response): handshakeAnswered(response, at: now, into: &actions)
                case let .error(report):
                    statistics.serverErrors.append(report)
                    actions.append(.report(.serverError(report)))
                default: continue
                }
            }
        }
        return actions
    }

    /// What a rare planted fault does instead of the brief, when `frame` sets one off.
    private mutating func rareFault(on frame: Frame, at now: SessionTime) -> [ClientAction]? {
        let fields = TLVSequence(frame.payload)
        if has(.crashOnDeepEmptyText), DeepInput.holdsEmptyText(fields, deeperThan: 2) {
            return [.abort(reason: "crash-on-deep-empty-text: a container nested three deep holds an empty TEXT")]
        }
        if has(.crashOnCompressedInvalidText), frame.header.compressType == .zlib, DeepInput.holdsInvalidText(fields) {
            return [.abort(reason: "crash-on-compressed-invalid-text: a zlib-compressed body holds a TEXT that is not UTF-8")]
        }
        if has(.crashOnLaterEmptyText), frame.header.messageType == .data, statistics.delivered > 0,
           fields.contains(where: { $0.tag == .text && $0.value.isEmpty }) {
            return [.abort(reason: "crash-on-later-empty-text: a DATA frame with an empty TEXT after another was delivered")]
        }
        let options = configuration.effectiveDecodeOptions
        if has(.hangAtInflateLimit), frame.header.compressType == .zlib, frame.payload.count == options.bodyLimit {
            hung = true
            return []
        }
        if has(.refuseEmptyDeepContainer), let offset = DeepInput.emptyContainer(in: fields, atDepth: 3) {
            let limit = options.tlv.depthLimit
            return failed(WireError(.tlvTooDeep(depth: limit + 1, limit: limit), offset: offset), at: now)
        }
        return nil
    }

    /// What a planted fault does instead of the brief, when `frame` is one it gets wrong.
    private mutating func plantedFault(on frame: Frame, at now: SessionTime) -> [ClientAction]? {
        let header = frame.header
        if header.compressType == .zlib {
            if has(.neverInflates) && header.bodyLength > 0 {
                return failed(WireError(.unknownCompression(.zlib), offset: FrameHeader.Field.compressType.offset), at: now)
            }
            if has(.inflatesEmptyBody) && header.bodyLength == 0 { return failed(WireError(.malformedZlibStream, offset: FrameHeader.size), at: now) }
        }
        guard header.messageType == .data else { return nil }
        if has(.closesOnCategoryMismatch) && frame.hasSequenceCategoryMismatch { return [.close] }
        if has(.ignoresDuplicateTags) {
            // What DecafWire's TLV rules refuse as a repeated tag, the decoder (told to allow them) let through.
            do { try TLVValidator.validate(frame.payload, options: TLVOptions()) } catch { if error.code == .tlvDuplicateTag { return [] } }
        }
        if has(.expectsContiguousCounters) {
            defer { lastServerSequence = header.sequence }
            if let last = lastServerSequence, header.sequence.counter != last.next.counter {
                var actions: [ClientAction] = []
                acknowledge(header, at: now, into: &actions)
                return actions
            }
        }
        return nil
    }

    /// The server's bytes broke the protocol: the client tells its application, sends the server an
    /// ERROR (EX-5) and closes; the shell reports the close with `connectionLost`.
    public mutating func failed(_ error: WireError, at now: SessionTime) -> [ClientAction] {
        statistics.protocolErrors.append(error)
        var actions: [ClientAction] = [.report(.protocolError(error))]
        if has(.keepsConnectionOnError) { return actions }
        if has(.exitsOnError) {
            return actions + [.exit(status: 1, saying: "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'nil value for key in frame decoder (\(error.code.name))'")]
        }
        switch link {
        case .open, .ready:
            control = control.next
            let header = FrameHeader(messageType: .control, sequence: control, timestamp: now.unixSeconds, sessionID: configuration.session,
                                     version: outgoingVersion)
            actions.append(.send(OutgoingFrame(header: header, fields: [ErrorReport(error).field])))
        case .down, .connecting:
            break
        }
        actions.append(.close)
        return actions
    }

    /// The application has a message to send.
    public mutating func submit(_ message: ClientMessage, at now: SessionTime) -> [ClientAction] {
        guard !stopped else { return [.report(.failed(id: message.id, reason: "the client has stopped"))] }
        messages[message.id] = Message(payload: message.payload)
        // The planted `single-slot-outbox`: what still waits to go out is lost, unsettled and unreported.
        if has(.singleSlotOutbox) { queue.removeAll { messages[$0]?.sequence == nil } }
        queue.append(message.id)
        unsettled += 1
        var actions: [ClientAction] = []
        fill(at: now, into: &actions)
        return actions
    }

    /// The application has nothing more to send: the client finishes once every message is settled.
    public mutating func endOfInput(at now: SessionTime) -> [ClientAction] {
        inputEnded = true
        var actions: [ClientAction] = []
        finishIfSettled(at: now, into: &actions)
        return actions
    }

    /// The application gives up on everything not yet settled (a deadline passed).
    public mutating func giveUp(reason: String, at now: SessionTime) -> [ClientAction] {
        var actions: [ClientAction] = []
        stop(reason: reason, into: &actions)
        return actions
    }

    /// A timer the shell ran went off at `now`: an ACK timeout, a heartbeat, a reconnect; `random` draws a backoff's jitter.
    public mutating func timerFired(_ timer: ClientTimer, at now: SessionTime, random: inout some RandomNumberGenerator) -> [ClientAction] {
        guard !stopped else { return [] }
        var actions: [ClientAction] = []
        switch timer {
        case .reconnect:
            guard case .down = link else { return [] }
            link = .connecting
            actions.append(.connect)
        case .retransmit:
            retransmitDue = nil
            retransmitOverdue(at: now, into: &actions)
        case .heartbeat:
            heartbeat(at: now, into: &actions)
        case .linger:
            lingering = false
            finish(into: &actions)
        }
        return actions
    }

    // MARK: - Handshake

    private mutating func handshakeAnswered(_ response: VersionResponse, at now: SessionTime, into actions: inout [ClientAction]) {
        guard case let .open(request, sentAt, requestAcknowledged) = link else { return }
        if has(.responseAfterAckOnly) && !requestAcknowledged { return }
        if has(.responseBeforeAckOnly) && requestAcknowledged { return }
        if outstanding.removeValue(forKey: request.rawValue)?.sends == 1 { measure(answeredFirstTime: true) }
        statistics.negotiated = response
        guard response.version.major == configuration.version.major else {
            actions.append(.report(.incompatible(response)))
            stop(reason: "the server speaks version \(response.version), another major", into: &actions)
            return
        }
        agreed = response
        link = .ready
        readySince = now.elapsed
        actions.append(.report(.handshake(response, roundTrip: now.elapsed - sentAt)))
        fill(at: now, into: &actions)
        scheduleRetransmit(at: now, into: &actions)
    }

    // MARK: - ACKs

    /// The ACK a frame with `header` is owed (EX-1, EX-2): twice under the `double-ack` fault.
    private mutating func acknowledge(_ header: FrameHeader, at now: SessionTime, into actions: inout [ClientAction]) {
        let ack = OutgoingFrame(header: header.acknowledgement(timestamp: now.unixSeconds, version: outgoingVersion))
        actions.append(.send(ack))
        if has(.doubleAck) { actions.append(.send(ack)) }
        lastSent = now.elapsed
    }

    private mutating func acknowledgementArrived(_ header: FrameHeader, at now: SessionTime, into actions: inout [ClientAction]) {
        if header.sequence.category == .heartbeat {
            statistics.heartbeatsAcknowledged += 1
            return
        }
        if header.sequence == unacknowledgedRequest {
            unacknowledgedRequest = nil
            outstanding[header.sequence.rawValue] = nil
            if case let .open(request, sentAt, _) = link { link = .open(request: request, sentAt: sentAt, requestAcknowledged: true) }
            actions.append(.report(.requestAcknowledged))
            scheduleRetransmit(at: now, into: &actions)
            return
        }
        guard let pending = outstanding.removeValue(forKey: header.sequence.rawValue) else {
            statistics.duplicateAcks += 1
            return
        }
        switch pending.kind {
        case .versionRequest, .readReceipt, .acknowledged:
            break
        case let .message(id):
            inFlightMessages -= 1
            if has(.resendsAfterAck) {
                outstanding[header.sequence.rawValue] = Outstanding(frame: pending.frame, kind: .acknowledged, lastSent: pending.lastSent, sends: pending.sends)
            }
            if pending.sends == 1, let bounds = configuration.adaptiveAckTimeout {
                roundTrip = (roundTrip ?? RoundTripEstimate(bounds: bounds)).adding(now.elapsed - pending.lastSent)
            }
            measure(answeredFirstTime: pending.sends == 1)
            if let message = settle(id) {
                statistics.acknowledged += 1
                actions.append(.report(.acknowledged(id: id, latency: now.elapsed - message.firstSent, retransmissions: message.sends - 1)))
                if !agreedFeatures.contains(.readReceipt) { forget(id) }
            }
            fill(at: now, into: &actions)
        }
        scheduleRetransmit(at: now, into: &actions)
        finishIfSettled(at: now, into: &actions)
    }

    private mutating func receiptArrived(_ receipt: ReadReceipt, into actions: inout [ClientAction]) {
        guard let id = idBySequence[receipt.sequence.rawValue], messages[id]?.settled == true else { return }
        statistics.readReceipts += 1
        actions.append(.report(.readReceipt(id: id)))
        forget(id)
        if lingering && !awaitsReceipts {
            lingering = false
            actions.append(.cancel(.linger))
            finish(into: &actions)
        }
    }

    // MARK: - Delivery

    /// A DATA frame from the server: delivered once (REPLAY-1), with its read receipt when the
    /// handshake agreed on them (EX-4).
    private mutating func deliver(_ frame: Frame, at now: SessionTime, into actions: inout [ClientAction]) {
        let fresh = replay.insert(ReplayMemory.Key(frame.header), now: now.unixSeconds) || has(.deliversRepeats)
        if fresh {
            statistics.delivered += 1
            actions.append(.report(.delivered(sequence: frame.header.sequence, payload: delivered(Array(frame.payload)))))
        } else {
            statistics.repeats += 1
        }
        guard fresh || has(.receiptsForRepeats), agreedFeatures.contains(.readReceipt), case .ready = link else { return }
        normal = normal.next
        let header = FrameHeader(messageType: .readReceipt, sequence: normal, timestamp: now.unixSeconds,
                                 sessionID: configuration.session, version: outgoingVersion)
        send(OutgoingFrame(header: header, fields: [ReadReceipt(sequence: frame.header.sequence).field]), as: .readReceipt, at: now, into: &actions)
    }

    /// The bytes the application is given for a DATA body: the body, or what a planted fault makes of it.
    private func delivered(_ payload: [UInt8]) -> [UInt8] {
        if has(.deliversValuesOnly) { return TLVSequence(payload).flatMap(\.value) }
        return has(.dropsUnknownTags) ? Self.rewritten(payload, droppingUnknownTags: true, textInLatin1: false) : payload
    }

    /// The body a message goes out with: its payload, or what a planted fault makes of it.
    private func written(_ payload: [UInt8]) -> [UInt8] {
        guard has(.dropsUnknownTags) || has(.textInLatin1) else { return payload }
        return Self.rewritten(payload, droppingUnknownTags: has(.dropsUnknownTags), textInLatin1: has(.textInLatin1))
    }

    /// `payload` encoded again with the fields of unknown tags left out, or TEXT in ISO-8859-1
    /// (a character beyond it written as "?"), at every depth.
    private static func rewritten(_ payload: [UInt8], droppingUnknownTags: Bool, textInLatin1: Bool) -> [UInt8] {
        func fields(_ sequence: TLVSequence) -> [TLVField] {
            sequence.compactMap { element in
                if element.isContainer { return .container(fields(element.children)) }
                if droppingUnknownTags && !TLVTag.known.contains(element.tag) { return nil }
                if textInLatin1 && element.tag == .text {
                    return TLVField(tag: .text, bytes: String(decoding: element.value, as: UTF8.self).unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : 0x3F })
                }
                return TLVField(tag: element.tag, bytes: Array(element.value))
            }
        }
        return TLVEncoder.encode(fields(TLVSequence(payload)))
    }

    /// The features in force: the agreed ones, or everything under `ignores-agreed-features`.
    private var agreedFeatures: FeatureFlags {
        has(.ignoresAgreedFeatures) ? .known : agreed?.features ?? []
    }

    // MARK: - Sending

    /// Sends queued messages while the window allows, once the handshake has agreed.
    private mutating func fill(at now: SessionTime, into actions: inout [ClientAction]) {
        guard case .ready = link, !stopped else { return }
        while inFlightMessages < configuration.window, !queue.isEmpty {
            let id = queue.removeFirst()
            guard var message = messages[id], !message.settled else { continue }
            if let sequence = message.sequence {
                statistics.retransmissions += 1
                idBySequence[sequence.rawValue] = id
            } else {
                if !(has(.reusesSequence) && normal.counter > 0) { normal = normal.next }
                message.sequence = normal
                message.timestamp = now.unixSeconds
                message.firstSent = now.elapsed
                idBySequence[normal.rawValue] = id
                statistics.sent += 1
                actions.append(.report(.sent(id: id, sequence: normal, timestamp: now.unixSeconds)))
            }
            message.sends += 1
            messages[id] = message
            var header = FrameHeader(messageType: .data, sequence: message.sequence ?? normal, timestamp: message.timestamp,
                                     sessionID: configuration.session, version: outgoingVersion)
            if configuration.compress && agreedFeatures.contains(.compression) { header.compressType = .zlib }
            inFlightMessages += 1
            let frame = OutgoingFrame(header: header, payload: written(message.payload))
            send(frame, as: .message(id), at: now, into: &actions)
            sendCopies(of: frame, into: &actions)
            if has(.copyThenNewTimestamp) { actions.append(.send(frame)) }
        }
    }

    /// Takes one more frame's fate into the measured loss: answered without a resend, or not.
    private mutating func measure(answeredFirstTime: Bool) {
        firstTimeShare = firstTimeShare * 0.75 + (answeredFirstTime ? 0.25 : 0)
    }

    /// The extra copies of a DATA frame that measured loss calls for.
    private mutating func sendCopies(of frame: OutgoingFrame, into actions: inout [ClientAction]) {
        let extra = copies - 1
        guard extra > 0 else { return }
        statistics.copies += extra
        actions += Array(repeating: .send(frame), count: extra)
    }

    private mutating func send(_ frame: OutgoingFrame, as kind: Outstanding.Kind, at now: SessionTime, into actions: inout [ClientAction]) {
        outstanding[frame.header.sequence.rawValue] = Outstanding(frame: frame, kind: kind, lastSent: now.elapsed, sends: 1)
        actions.append(.send(frame))
        lastSent = now.elapsed
        scheduleRetransmit(at: now, into: &actions)
    }

    /// Keeps the retransmit timer on the earliest overdue frame.
    private mutating func scheduleRetransmit(at now: SessionTime, into actions: inout [ClientAction]) {
        guard let earliest = outstanding.values.map(\.lastSent).min() else {
            if retransmitDue != nil {
                retransmitDue = nil
                actions.append(.cancel(.retransmit))
            }
            return
        }
        let due = earliest + ackTimeout
        guard due != retransmitDue else { return }
        retransmitDue = due
        actions.append(.schedule(.retransmit, after: max(.zero, due - now.elapsed)))
    }

    /// Sends every overdue frame again with the same sequence and timestamp, or gives it up after
    /// the last retry (EX-7).
    private mutating func retransmitOverdue(at now: SessionTime, into actions: inout [ClientAction]) {
        let timeout = ackTimeout
        let overdue = outstanding.filter { now.elapsed - $0.value.lastSent >= timeout }
        for (key, var pending) in overdue.sorted(by: { $0.value.lastSent < $1.value.lastSent }) {
            if case .acknowledged = pending.kind {
                // The planted `resends-after-ack`: one more send of an acknowledged message, then no more.
                outstanding[key] = nil
                actions.append(.send(pending.frame))
                continue
            }
            let retries = if case .versionRequest = pending.kind { min(configuration.retries, configuration.handshakeSends - 1) } else { configuration.retries }
            if pending.sends > retries && !has(.resendForever) {
                outstanding[key] = nil
                giveUp(pending, at: now, into: &actions)
                continue
            }
            pending.lastSent = now.elapsed
            pending.sends += 1
            if has(.noResend) {
                outstanding[key] = pending
                continue
            }
            if case .versionRequest = pending.kind { measure(answeredFirstTime: false) }
            if configuration.renewsHandshakeRequest, case .versionRequest = pending.kind, case let .open(_, sentAt, acknowledged) = link {
                // A repeat gets an ACK but no second answer (REPLAY-1): a lost answer needs a new request.
                outstanding[key] = nil
                control = control.next
                pending.frame.header.sequence = control
                pending.frame.header.timestamp = now.unixSeconds
                link = .open(request: control, sentAt: sentAt, requestAcknowledged: acknowledged)
                unacknowledgedRequest = control
                outstanding[control.rawValue] = pending
            } else if has(.newSequenceOnResend), case let .message(id) = pending.kind {
                outstanding[key] = nil
                normal = normal.next
                pending.frame.header.sequence = normal
                messages[id]?.sequence = normal
                idBySequence[normal.rawValue] = id
                outstanding[normal.rawValue] = pending
            } else {
                outstanding[key] = pending
            }
            if case let .message(id) = pending.kind { messages[id]?.sends += 1 }
            if has(.copyThenNewTimestamp), case .message = pending.kind {
                // Stamped anew, as a resend built from scratch is, and never the same second again.
                pending.frame.header.timestamp = max(now.unixSeconds, pending.frame.header.timestamp &+ 1)
                outstanding[pending.frame.header.sequence.rawValue] = pending
            }
            statistics.retransmissions += 1
            actions.append(.send(pending.frame))
            if case .message = pending.kind { sendCopies(of: pending.frame, into: &actions) }
            lastSent = now.elapsed
        }
        scheduleRetransmit(at: now, into: &actions)
        finishIfSettled(at: now, into: &actions)
    }

    private mutating func giveUp(_ pending: Outstanding, at now: SessionTime, into actions: inout [ClientAction]) {
        switch pending.kind {
        case let .message(id):
            inFlightMessages -= 1
            if let message = settle(id) {
                statistics.failed += 1
                statistics.failureReasons["no ACK after its retries", default: 0] += 1
                actions.append(.report(.failed(id: id, reason: "no ACK after \(message.sends) sends, \(ackTimeout) apart")))
                forget(id)
            }
            fill(at: now, into: &actions)
        case .versionRequest:
            // A server that answers no handshake is no use: close and try a new connection.
            actions.append(.close)
        case .readReceipt, .acknowledged:
            break
        }
    }

    /// Drops a settled message that nothing more can arrive for, so memory follows what is in
    /// flight, not how many messages were sent.
    private mutating func forget(_ id: Int) {
        if let sequence = messages.removeValue(forKey: id)?.sequence { idBySequence[sequence.rawValue] = nil }
    }

    /// Marks message `id` settled; returns it unless it already was.
    private mutating func settle(_ id: Int) -> Message? {
        guard var message = messages[id], !message.settled else { return nil }
        message.settled = true
        messages[id] = message
        unsettled -= 1
        return message
    }

    // MARK: - Heartbeats and reconnecting

    private mutating func heartbeat(at now: SessionTime, into actions: inout [ClientAction]) {
        guard let interval = configuration.heartbeat else { return }
        switch link {
        case .down, .connecting: return
        case .open, .ready: break
        }
        if now.elapsed - lastHeard >= interval * configuration.silentIntervalsBeforeDead {
            actions.append(.close)
            return
        }
        if case .ready = link, has(.dropsIdleConnection), heartbeatsOnConnection >= 2 {
            actions.append(.close)
            return
        }
        if case .ready = link, now.elapsed - lastSent >= interval - interval / 10 {
            heartbeatsOnConnection += 1
            heartbeatSequence = heartbeatSequence.next
            statistics.heartbeatsSent += 1
            actions.append(.send(OutgoingFrame(header: FrameHeader(messageType: .heartbeat, sequence: heartbeatSequence, timestamp: now.unixSeconds,
                                                                   sessionID: configuration.session, version: outgoingVersion))))
            lastSent = now.elapsed
        }
        actions.append(.schedule(.heartbeat, after: interval))
    }

    private mutating func reconnectLater(at now: SessionTime, random: inout some RandomNumberGenerator) -> [ClientAction] {
        guard !stopped else { return [] }
        var actions: [ClientAction] = []
        let delay: Duration?
        if has(.noBackoff) {
            delay = configuration.reconnect == .none ? nil : .zero
        } else {
            let full = configuration.reconnect.delay(attempt: reconnectAttempt, base: configuration.reconnectBase, cap: configuration.maxDelay)
            delay = has(.noJitter) ? full : full.map { ReconnectPolicy.jittered($0, using: &random) }
        }
        guard let delay else {
            stop(reason: "the connection was lost and the client does not reconnect", into: &actions)
            return actions
        }
        reconnectAttempt += 1
        statistics.reconnects += 1
        actions += [.report(.reconnecting(after: delay)), .schedule(.reconnect, after: delay)]
        return actions
    }

    // MARK: - Ending

    /// Whether an acknowledged message still waits for the read receipt the handshake promised.
    private var awaitsReceipts: Bool {
        agreedFeatures.contains(.readReceipt) && statistics.readReceipts < statistics.acknowledged
    }

    private mutating func finishIfSettled(at now: SessionTime, into actions: inout [ClientAction]) {
        guard inputEnded, unsettled == 0, !stopped, !lingering else { return }
        if awaitsReceipts, case .ready = link {
            lingering = true
            actions.append(.schedule(.linger, after: configuration.ackTimeout))
            return
        }
        finish(into: &actions)
    }

    private mutating func finish(into actions: inout [ClientAction]) {
        guard !stopped else { return }
        stopped = true
        actions += ClientTimer.allCases.map { .cancel($0) } + [.report(.finished), .close]
    }

    /// Gives up every unsettled message and stops.
    private mutating func stop(reason: String, into actions: inout [ClientAction]) {
        for id in messages.keys.sorted() where settle(id) != nil {
            statistics.failed += 1
            statistics.failureReasons[reason, default: 0] += 1
            actions.append(.report(.failed(id: id, reason: reason)))
            forget(id)
        }
        outstanding = [:]
        queue = []
        finish(into: &actions)
    }
}
