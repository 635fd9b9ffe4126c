import DecafWire

/// The reference peer's protocol logic for one connection, as a pure function of what arrives and
/// when: section 7 of the brief, plus the faults it was told to have. The NIO handler carries out
/// the actions it returns; nothing here touches a socket or reads a clock.
public struct PeerSession: Sendable {
    /// What the peer supports and how it behaves.
    public let configuration: PeerConfiguration
    /// What happened on the connection so far.
    public private(set) var summary = ConnectionSummary()

    private let negotiator: VersionNegotiator
    /// The version and features agreed by the last handshake whose majors matched.
    private var agreed: VersionResponse?
    /// CONTROL frames are remembered per connection: a handshake on a new connection is answered
    /// whatever came before on others (unless the peer chose to remember them per session).
    private var controlReplay: ReplayMemory
    /// The memory of DATA and READ_RECEIPT frames of a connection served on its own; a server
    /// shares one across its connections.
    private var ownReplay: ReplayMemory?
    /// The sequence of the last CONTROL frame this session sent.
    public private(set) var lastControlSequence: SequenceNumber
    private var normalSequence = SequenceNumber(category: .normal, counter: 0)
    /// The session of the last frame received, for replies that answer no frame (ERROR).
    private var lastSession = SessionID(rawValue: 0)
    /// Set by the planted fault `hang-at-inflate-limit`: the connection answers nothing more.
    private var hung = false

    /// A session whose CONTROL counter goes on from `lastControlSequence`, for a server that counts
    /// across a session's connections (SEQ-1); from 0 when nil.
    public init(configuration: PeerConfiguration, lastControlSequence: SequenceNumber? = nil) {
        self.configuration = configuration
        self.lastControlSequence = lastControlSequence ?? SequenceNumber(category: .control, counter: 0)
        negotiator = VersionNegotiator(version: configuration.version, features: configuration.features)
        controlReplay = configuration.makeReplayMemory()
        ownReplay = configuration.makeReplayMemory()
    }

    /// What to do about `frame`, received at `now` (UNIX seconds), on a connection whose repeats
    /// are remembered by the session alone.
    public mutating func receive(_ frame: Frame, now: UInt32) -> [PeerAction] {
        var replay = ownReplay.take() ?? configuration.makeReplayMemory()
        defer { ownReplay = replay }
        return receive(frame, now: now, replay: &replay)
    }

    /// What to do about `frame`, received at `now` (UNIX seconds); `replay` remembers the DATA and
    /// READ_RECEIPT frames of every connection of the server, so a message resent on a new
    /// connection is acknowledged but not delivered again.
    public mutating func receive(_ frame: Frame, now: UInt32, replay: inout ReplayMemory) -> [PeerAction] {
        let header = frame.header
        summary.framesIn[header.messageType, default: 0] += 1
        lastSession = header.sessionID
        if hung { return [] }
        if let planted = rareFault(on: frame, now: now) { return planted }
        switch header.messageType {
        case .ack:
            return configuration.has(.ackAcks) ? [ack(header, now: now)] : []
        case .heartbeat:
            return configuration.has(.noHeartbeatAck) ? [] : [ack(header, now: now)]
        case .data, .control, .readReceipt:
            let key = ReplayMemory.Key(header)
            let perConnection = header.messageType == .control && !configuration.choices.contains(.controlRememberedPerSession)
            let fresh = perConnection ? controlReplay.insert(key, now: now) : replay.insert(key, now: now)
            if !fresh {
                summary.repeats += 1
                if configuration.has(.replayReject) {
                    return [.close(reason: "repeated frame \(header.sequence) taken for a replay attack")]
                }
                if !configuration.has(.replayRedeliver) { return acks(header, now: now) }
            }
            let acknowledgements = acks(header, now: now)
            if header.messageType == .data {
                return acknowledgements + deliver(frame, now: now)
            } else if header.messageType == .control {
                let answer = handshake(frame, now: now)
                // The response, then the ACK, then the close of a handshake across majors, when
                // that is the order chosen (HS-2) and there is a response.
                guard configuration.choices.contains(.responseFirst), let response = answer.first else { return acknowledgements + answer }
                return [response] + acknowledgements + answer.dropFirst()
            }
            return acknowledgements
        default:
            return configuration.has(.ackUnknownTypes) ? [ack(header, now: now)] : []
        }
    }

    /// What to do about a fatal error: an ERROR TLV, then close (EX-5).
    public mutating func fail(_ error: WireError, now: UInt32) -> [PeerAction] {
        summary.errors.append(error)
        if error.code == .tlvTooDeep && configuration.has(.dropOnDeepTLV) {
            return [.close(reason: error.description)]
        }
        let report = send(control(fields: [ErrorReport(error).field], session: lastSession, now: now))
        if (error.code == .badMagic && configuration.has(.keepOpenOnBadMagic)) || configuration.has(.keepOpenOnError) { return [report] }
        return [report, .close(reason: error.description)]
    }

    /// What a rare planted fault does instead of the brief, when `frame` sets one off.
    private mutating func rareFault(on frame: Frame, now: UInt32) -> [PeerAction]? {
        let fields = TLVSequence(frame.payload)
        if configuration.has(.crashOnDeepEmptyText), DeepInput.holdsEmptyText(fields, deeperThan: 3) {
            return [.abort(reason: "crash-on-deep-empty-text: a container nested four deep holds an empty TEXT")]
        }
        if configuration.has(.crashOnCompressedInvalidText), frame.header.compressType == .zlib, DeepInput.holdsInvalidText(fields) {
            return [.abort(reason: "crash-on-compressed-invalid-text: a zlib-compressed body holds a TEXT that is not UTF-8")]
        }
        if configuration.has(.crashOnLaterEmptyText), frame.header.messageType == .data, summary.delivered > 0,
           fields.contains(where: { $0.tag == .text && $0.value.isEmpty }) {
            return [.abort(reason: "crash-on-later-empty-text: a DATA frame with an empty TEXT after another was delivered")]
        }
        if configuration.has(.hangAtInflateLimit), frame.header.compressType == .zlib, frame.payload.count == configuration.decodeOptions.bodyLimit {
            hung = true
            return []
        }
        if configuration.has(.refuseEmptyDeepContainer), let offset = DeepInput.emptyContainer(in: fields, atDepth: 3) {
            let limit = configuration.decodeOptions.tlv.depthLimit
            return fail(WireError(.tlvTooDeep(depth: limit + 1, limit: limit), offset: offset), now: now)
        }
        return nil
    }

    // MARK: - Replies

    /// The ACKs for `header` (EX-1, EX-2): one, or two for CONTROL under `double-control-ack`.
    private mutating func acks(_ header: FrameHeader, now: UInt32) -> [PeerAction] {
        let count = header.messageType == .control && configuration.has(.doubleControlAck) ? 2 : 1
        return (0..<count).map { _ in ack(header, now: now) }
    }

    /// An ACK: the same sequence and session, empty body, no flags (EX-1).
    private mutating func ack(_ header: FrameHeader, now: UInt32) -> PeerAction {
        let sequence = configuration.has(.ackWrongSequence) ? header.sequence.next : header.sequence
        var ack = header.acknowledgement(timestamp: now, version: outgoingVersion)
        ack.sequence = sequence
        let delay = configuration.slowAckDelay ?? .zero
        return send(OutgoingFrame(header: ack), after: delay)
    }

    /// Delivers a DATA frame, and sends its read receipt when both sides agreed to them (EX-4).
    private mutating func deliver(_ frame: Frame, now: UInt32) -> [PeerAction] {
        summary.delivered += 1
        var actions: [PeerAction] = [.deliver(frame.header)]
        let receipts = agreed?.features.contains(.readReceipt) == true ? !configuration.has(.noReadReceipts) : configuration.has(.readReceiptsUnagreed)
        if receipts {
            normalSequence = normalSequence.next
            let header = FrameHeader(messageType: .readReceipt, sequence: normalSequence, timestamp: now,
                                     sessionID: frame.header.sessionID, version: outgoingVersion)
            actions.append(send(OutgoingFrame(header: header, fields: [ReadReceipt(sequence: frame.header.sequence).field]),
                                after: configuration.readReceiptDelay))
        }
        return actions
    }

    /// Answers a VERSION_REQUEST in a CONTROL frame (HS-2); renegotiates on a later one.
    private mutating func handshake(_ frame: Frame, now: UInt32) -> [PeerAction] {
        guard let field = frame.fields.first(where: { $0.tag == .versionRequest }),
              let request = VersionRequest(value: field.value)
        else { return [] }
        if configuration.has(.handshakeIgnoresShort) && frame.body.count < 12 { return [] }
        var outcome = negotiator.respond(to: request)
        if configuration.has(.fixedFeatures) { outcome.response.features = FeatureFlags(rawValue: 0x000F) }
        agreed = outcome.closesConnection ? nil : outcome.response
        summary.negotiated = outcome.response
        let response = send(control(fields: [outcome.response.field], session: frame.header.sessionID, now: now))
        guard outcome.closesConnection else { return [response] }
        return [response, .close(reason: "client speaks major \(request.version.major), this peer \(configuration.version.major)")]
    }

    /// A CONTROL frame with the peer's own next CONTROL sequence (HS-2, EX-5).
    private mutating func control(fields: [TLVField], session: SessionID, now: UInt32) -> OutgoingFrame {
        lastControlSequence = lastControlSequence.next
        let header = FrameHeader(messageType: .control, sequence: lastControlSequence, timestamp: now, sessionID: session, version: outgoingVersion)
        return OutgoingFrame(header: header, fields: fields)
    }

    private mutating func send(_ frame: OutgoingFrame, after delay: Duration = .zero) -> PeerAction {
        summary.framesOut[frame.header.messageType, default: 0] += 1
        return .send(frame, after: delay)
    }

    /// 1.0 until a handshake agrees on a version, then that version (VER-3).
    private var outgoingVersion: ProtocolVersion { agreed?.version ?? .v1_0 }
}
