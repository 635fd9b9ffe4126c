import DecafSession
import DecafWire
import Testing

/// Frames as the session sees them: encoded, then decoded, as on a connection.
enum Frames {
    static let session = SessionID(rawValue: 0x444C)

    static func make(_ type: MessageType, counter: UInt32, category: SequenceCategory? = nil, timestamp: UInt32 = 1000,
                     session: SessionID = session, fields: [TLVField] = []) -> Frame {
        let header = FrameHeader(messageType: type, sequence: SequenceNumber(category: category ?? .usual(for: type), counter: counter),
                                 timestamp: timestamp, sessionID: session)
        var encoder = FrameEncoder()
        var decoder = FrameDecoder()
        decoder.append(encoder.encode(header, fields: fields))
        return try! decoder.nextFrame()!
    }

    static func versionRequest(_ major: UInt8, _ minor: UInt8, _ features: FeatureFlags, counter: UInt32 = 1) -> Frame {
        make(.control, counter: counter, fields: [VersionRequest(version: ProtocolVersion(major: major, minor: minor), features: features).field])
    }
}

extension [PeerAction] {
    var sent: [OutgoingFrame] { compactMap { if case let .send(frame, _) = $0 { frame } else { nil } } }
    var closes: Bool { contains { if case .close = $0 { true } else { false } } }
    var delivered: [SequenceNumber] { compactMap { if case let .deliver(header) = $0 { header.sequence } else { nil } } }
    var delays: [Duration] { compactMap { if case let .send(_, delay) = $0 { delay } else { nil } } }
}

@Suite("Peer session: section 7")
struct PeerSessionTests {
    static func session(_ change: (inout PeerConfiguration) -> Void = { _ in }) -> PeerSession {
        var configuration = PeerConfiguration()
        change(&configuration)
        return PeerSession(configuration: configuration)
    }

    static func isAck(_ frame: OutgoingFrame, of sequence: SequenceNumber) -> Bool {
        frame.header.messageType == .ack && frame.header.sequence == sequence && frame.header.sessionID == Frames.session
            && frame.payload.isEmpty && frame.header.encryptType == .none && frame.header.compressType == .none
    }

    @Test("DATA, CONTROL and READ_RECEIPT get exactly one ACK with their sequence and session (EX-1)",
          arguments: [MessageType.data, .control, .readReceipt])
    func acknowledged(type: MessageType) {
        var session = Self.session()
        let frame = Frames.make(type, counter: 7)
        let actions = session.receive(frame, now: 1000)
        #expect(actions.sent.count == 1)
        #expect(Self.isAck(actions.sent[0], of: frame.header.sequence))
        #expect(!actions.closes)
    }

    @Test("an ACK goes out with checksum 0 and body_length 0")
    func ackOnTheWire() {
        var session = Self.session()
        let ack = session.receive(Frames.make(.data, counter: 1), now: 1000).sent[0]
        var encoder = FrameEncoder()
        let bytes = encoder.encode(ack.header, payload: ack.payload)
        #expect(bytes.count == 28)
        #expect(FrameHeader(decoding: bytes)?.checksum == 0)
    }

    @Test("a HEARTBEAT is answered by an ACK carrying its sequence (EX-2)")
    func heartbeat() {
        var session = Self.session()
        let heartbeat = Frames.make(.heartbeat, counter: 41)
        let sent = session.receive(heartbeat, now: 1000).sent
        #expect(sent.count == 1 && Self.isAck(sent[0], of: heartbeat.header.sequence))
    }

    @Test("ACK frames and undefined message types are never acknowledged (EX-3, FRAME-4)")
    func notAcknowledged() {
        var session = Self.session()
        #expect(session.receive(Frames.make(.ack, counter: 1), now: 1000).isEmpty)
        #expect(session.receive(Frames.make(MessageType(rawValue: 9), counter: 1), now: 1000).isEmpty)
    }

    @Test("DATA is delivered once")
    func delivered() {
        var session = Self.session()
        let data = Frames.make(.data, counter: 3)
        #expect(session.receive(data, now: 1000).delivered == [data.header.sequence])
        #expect(session.summary.delivered == 1)
    }

    @Test("the handshake answers the lower minor and the intersection of features, with its own CONTROL sequence (HS-2)")
    func handshake() throws {
        var session = Self.session {
            $0.version = ProtocolVersion(major: 1, minor: 1)
            $0.features = [.basic, .compression, .readReceipt]
        }
        let request = Frames.versionRequest(1, 2, [.basic, .readReceipt, .groupChat, FeatureFlags(rawValue: 0x8000)])
        let sent = session.receive(request, now: 1000).sent
        #expect(sent.count == 2)
        #expect(Self.isAck(sent[0], of: request.header.sequence))
        let response = sent[1]
        #expect(response.header.messageType == .control)
        #expect(response.header.sequence.category == .control)
        #expect(response.header.sessionID == Frames.session)
        let fields = TLVSequence(response.payload).map(TLVField.init)
        #expect(fields == [VersionResponse(version: ProtocolVersion(major: 1, minor: 1), features: [.basic, .readReceipt]).field])
    }

    @Test("after the handshake the peer's headers carry the negotiated version (VER-3)")
    func negotiatedVersionInHeaders() {
        var session = Self.session { $0.version = ProtocolVersion(major: 1, minor: 3) }
        #expect(session.receive(Frames.make(.data, counter: 1), now: 1000).sent[0].header.version == .v1_0)
        _ = session.receive(Frames.versionRequest(1, 2, .basic), now: 1000)
        #expect(session.receive(Frames.make(.data, counter: 2), now: 1000).sent[0].header.version == ProtocolVersion(major: 1, minor: 2))
    }

    @Test("a different major gets the peer's own version, no features, and the connection closes (HS-2)")
    func majorMismatch() {
        var session = Self.session()
        let actions = session.receive(Frames.versionRequest(2, 0, .known), now: 1000)
        #expect(actions.sent.count == 2)
        #expect(TLVSequence(actions.sent[1].payload).map(TLVField.init) == [VersionResponse(version: .v1_0, features: []).field])
        #expect(actions.closes)
        guard case .close = actions.last else {
            Issue.record("the close must come after the response")
            return
        }
    }

    @Test("with response-first the VERSION_RESPONSE goes out before the ACK, and before the close of a handshake across majors (HS-2)")
    func responseFirst() throws {
        var session = Self.session { $0.choices = [.responseFirst] }
        let request = Frames.versionRequest(1, 0, .basic)
        let sent = session.receive(request, now: 1000).sent
        #expect(sent.map(\.header.messageType) == [.control, .ack])
        #expect(Self.isAck(sent[1], of: request.header.sequence))
        // A CONTROL frame that is no VERSION_REQUEST gets its ACK alone.
        #expect(session.receive(Frames.make(.control, counter: 2), now: 1000).sent.map(\.header.messageType) == [.ack])
        var across = Self.session { $0.choices = [.responseFirst] }
        let actions = across.receive(Frames.versionRequest(2, 0, .known), now: 1000)
        #expect(actions.sent.map(\.header.messageType) == [.control, .ack])
        guard case .close = actions.last else {
            Issue.record("the close must come last")
            return
        }
    }

    @Test("with control-remembered-per-session a VERSION_REQUEST repeated on another connection is a repeat: ACKed, not answered (interpretation 15)")
    func controlRememberedPerSession() {
        let request = Frames.versionRequest(1, 0, .basic)
        for (choices, answers) in [(Set<PeerChoice>(), 2), ([.controlRememberedPerSession], 1)] {
            var first = Self.session { $0.choices = choices }
            var second = Self.session { $0.choices = choices }
            var replay = PeerConfiguration().makeReplayMemory()
            #expect(first.receive(request, now: 1000, replay: &replay).sent.count == 2)
            #expect(second.receive(request, now: 1001, replay: &replay).sent.count == answers, "\(choices)")
        }
    }

    @Test("a later handshake renegotiates (HS-2)")
    func renegotiation() {
        var session = Self.session()
        _ = session.receive(Frames.versionRequest(1, 0, [.basic, .readReceipt], counter: 1), now: 1000)
        let second = session.receive(Frames.versionRequest(1, 0, [.basic], counter: 2), now: 1000).sent
        #expect(TLVSequence(second[1].payload).map(TLVField.init) == [VersionResponse(version: .v1_0, features: [.basic]).field])
        #expect(session.receive(Frames.make(.data, counter: 5), now: 1000).sent.count == 1, "no read receipt after renegotiating it away")
    }

    @Test("with READ_RECEIPT agreed, each delivered DATA frame gets a read receipt after the delay (EX-4)")
    func readReceipts() {
        var session = Self.session { $0.readReceiptDelay = .milliseconds(250) }
        _ = session.receive(Frames.versionRequest(1, 0, [.basic, .readReceipt]), now: 1000)
        let data = Frames.make(.data, counter: 9)
        let actions = session.receive(data, now: 1000)
        #expect(actions.sent.count == 2)
        let receipt = actions.sent[1]
        #expect(receipt.header.messageType == .readReceipt)
        #expect(TLVSequence(receipt.payload).map(TLVField.init) == [ReadReceipt(sequence: data.header.sequence).field])
        #expect(actions.delays == [.zero, .milliseconds(250)])
        #expect(session.receive(data, now: 1001).sent.count == 1, "a repeat gets its ACK but no second receipt")
    }

    @Test("without READ_RECEIPT agreed there are no read receipts")
    func noReadReceipts() {
        var session = Self.session()
        _ = session.receive(Frames.versionRequest(1, 0, [.basic]), now: 1000)
        #expect(session.receive(Frames.make(.data, counter: 9), now: 1000).sent.count == 1)
    }

    @Test("a repeat is acknowledged again but not delivered twice, until the window has passed (REPLAY-1)")
    func repeats() {
        var session = Self.session { $0.replayWindow = 60 }
        let data = Frames.make(.data, counter: 4)
        #expect(session.receive(data, now: 1000).delivered.count == 1)
        let repeated = session.receive(data, now: 1030)
        #expect(repeated.sent.count == 1 && Self.isAck(repeated.sent[0], of: data.header.sequence))
        #expect(repeated.delivered.isEmpty)
        #expect(session.summary.repeats == 1)
        #expect(session.receive(data, now: 1061).delivered.count == 1, "forgotten after the window")
        let sameSequenceLater = Frames.make(.data, counter: 4, timestamp: 1001)
        #expect(session.receive(sameSequenceLater, now: 1062).delivered.count == 1, "another timestamp is another frame")
    }

    @Test("a repeat on a new connection of the same session is acknowledged, not delivered again; another session's frame is its own")
    func repeatsAcrossConnections() {
        var replay = PeerConfiguration().makeReplayMemory()
        var first = Self.session(), second = Self.session()
        let data = Frames.make(.data, counter: 4)
        #expect(first.receive(data, now: 1000, replay: &replay).delivered.count == 1)
        let resent = second.receive(data, now: 1005, replay: &replay)
        #expect(resent.delivered.isEmpty && resent.sent.count == 1 && Self.isAck(resent.sent[0], of: data.header.sequence))
        #expect(second.summary.repeats == 1)
        let otherClient = Frames.make(.data, counter: 4, session: SessionID(rawValue: 0x1234))
        #expect(second.receive(otherClient, now: 1006, replay: &replay).delivered.count == 1, "two sessions with the same sequence and timestamp")
    }

    @Test("the replay memory is bounded: the oldest frames are forgotten first")
    func boundedReplayMemory() {
        var session = Self.session { $0.replayMemoryLimit = 10 }
        for counter in 0..<11 { _ = session.receive(Frames.make(.data, counter: UInt32(counter)), now: 1000) }
        #expect(session.receive(Frames.make(.data, counter: 0), now: 1000).delivered.count == 1)
        #expect(session.receive(Frames.make(.data, counter: 10), now: 1000).delivered.isEmpty)
    }

    @Test("a fatal error gets a CONTROL frame with its ERROR TLV, then the connection closes (EX-5)")
    func fatalError() {
        var session = Self.session()
        _ = session.receive(Frames.make(.data, counter: 1), now: 1000)
        let error = WireError(.checksumMismatch(stored: 1, computed: 2), offset: 24)
        let actions = session.fail(error, now: 1000)
        #expect(actions.count == 2)
        #expect(actions.sent.first?.header.messageType == .control)
        #expect(actions.sent.first?.header.sessionID == Frames.session)
        #expect(TLVSequence(actions.sent[0].payload).map(TLVField.init) == [ErrorReport(error).field])
        guard case .close = actions.last else {
            Issue.record("no close after the ERROR")
            return
        }
    }
}

@Suite("Peer session: faults")
struct PeerFaultTests {
    static func session(_ fault: PeerFault) -> PeerSession {
        var configuration = PeerConfiguration()
        configuration.faults = [fault]
        return PeerSession(configuration: configuration)
    }

    @Test("every fault has a name that parses back, a summary, and the requirements it breaks")
    func catalog() {
        for fault in PeerFault.named {
            #expect(PeerFault(name: fault.name)?.name == fault.name)
            #expect(!fault.summary.isEmpty && !fault.breaks.isEmpty)
        }
        #expect(PeerFault(name: "slow-ack") == .slowAck(delay: PeerFault.defaultSlowAckDelay))
        #expect(PeerFault(name: "no-such-fault") == nil)
        #expect(PeerFault(name: "") == nil)
    }

    @Test("no-heartbeat-ack leaves heartbeats unanswered")
    func noHeartbeatAck() {
        var session = Self.session(.noHeartbeatAck)
        #expect(session.receive(Frames.make(.heartbeat, counter: 1), now: 1000).isEmpty)
    }

    @Test("double-control-ack acknowledges CONTROL frames twice")
    func doubleControlAck() {
        var session = Self.session(.doubleControlAck)
        #expect(session.receive(Frames.make(.control, counter: 1), now: 1000).sent.count == 2)
        #expect(session.receive(Frames.make(.data, counter: 1), now: 1000).sent.count == 1)
    }

    @Test("ack-wrong-sequence acknowledges the next counter")
    func ackWrongSequence() {
        var session = Self.session(.ackWrongSequence)
        let data = Frames.make(.data, counter: 5)
        #expect(session.receive(data, now: 1000).sent[0].header.sequence == data.header.sequence.next)
    }

    @Test("handshake-ignores-short leaves the normal 10-byte request unanswered but answers a longer one")
    func handshakeIgnoresShort() {
        var session = Self.session(.handshakeIgnoresShort)
        let normal = Frames.versionRequest(1, 0, .basic)
        #expect(normal.body.count == 10)
        #expect(session.receive(normal, now: 1000).sent.count == 1, "the ACK only")
        let padded = Frames.make(.control, counter: 2, fields: [VersionRequest(version: .v1_0, features: .basic).field, TLVField(tag: .custom, bytes: [])])
        #expect(session.receive(padded, now: 1000).sent.count == 2)
    }

    @Test("fixed-features answers 0x000F whatever was asked")
    func fixedFeatures() {
        var session = Self.session(.fixedFeatures)
        let sent = session.receive(Frames.versionRequest(1, 0, [.basic]), now: 1000).sent
        #expect(TLVSequence(sent[1].payload).map(TLVField.init) == [VersionResponse(version: .v1_0, features: FeatureFlags(rawValue: 0x000F)).field])
    }

    @Test("replay-reject closes on a repeat without acknowledging it")
    func replayReject() {
        var session = Self.session(.replayReject)
        let data = Frames.make(.data, counter: 1)
        _ = session.receive(data, now: 1000)
        let actions = session.receive(data, now: 1001)
        #expect(actions.sent.isEmpty && actions.closes)
    }

    @Test("replay-redeliver delivers a repeat again")
    func replayRedeliver() {
        var session = Self.session(.replayRedeliver)
        let data = Frames.make(.data, counter: 1)
        _ = session.receive(data, now: 1000)
        #expect(session.receive(data, now: 1001).delivered.count == 1)
    }

    @Test("keep-open-on-bad-magic sends the ERROR but does not close")
    func keepOpenOnBadMagic() {
        var session = Self.session(.keepOpenOnBadMagic)
        let actions = session.fail(WireError(.badMagic(found: 0), offset: 0), now: 1000)
        #expect(actions.sent.count == 1 && !actions.closes)
        #expect(Self.session(.keepOpenOnBadMagic).configuration.decodeOptions.verifiesChecksum)
    }

    @Test("ack-unknown-types acknowledges undefined message types")
    func ackUnknownTypes() {
        var session = Self.session(.ackUnknownTypes)
        #expect(session.receive(Frames.make(MessageType(rawValue: 9), counter: 1), now: 1000).sent.count == 1)
    }

    @Test("drop-on-deep-tlv decodes with depth limit 2 and closes without an ERROR when it is passed")
    func dropOnDeepTLV() {
        var session = Self.session(.dropOnDeepTLV)
        #expect(session.configuration.decodeOptions.tlv.depthLimit == 2)
        let actions = session.fail(WireError(.tlvTooDeep(depth: 3, limit: 2), offset: 12), now: 1000)
        #expect(actions.sent.isEmpty && actions.closes)
    }

    @Test("slow-ack delays every ACK")
    func slowAck() {
        var session = Self.session(.slowAck(delay: .milliseconds(300)))
        #expect(session.receive(Frames.make(.data, counter: 1), now: 1000).delays == [.milliseconds(300)])
    }

    @Test("accept-bad-crc turns off checksum verification in the decoder")
    func acceptBadCRC() {
        #expect(!Self.session(.acceptBadCRC).configuration.decodeOptions.verifiesChecksum)
        #expect(PeerSessionTests.session().configuration.decodeOptions.verifiesChecksum)
    }
}

/// The rare planted faults: each acts only on its deep input, and leaves every other frame to the brief.
@Suite("Peer session: rare planted faults")
struct PeerRareFaultTests {
    static func nested(_ depth: Int, around field: TLVField) -> TLVField {
        (0..<depth).reduce(field) { inner, _ in TLVField(tag: .container, content: .fields([inner])) }
    }

    @Test("crash-on-deep-empty-text aborts on an empty TEXT four containers down, and only there")
    func crash() {
        var session = PeerSessionTests.session { $0.faults = [.crashOnDeepEmptyText] }
        let shallow = Frames.make(.data, counter: 1, fields: [Self.nested(3, around: TLVField(tag: .text, text: ""))])
        #expect(session.receive(shallow, now: 1000).sent.count == 1, "three down: acknowledged")
        let deep = Frames.make(.data, counter: 2, fields: [Self.nested(4, around: TLVField(tag: .text, text: ""))])
        #expect(session.receive(deep, now: 1000).contains { if case .abort = $0 { true } else { false } })
    }

    @Test("hang-at-inflate-limit answers nothing more on the connection once a zlib body inflates to exactly the limit")
    func hang() {
        var session = PeerSessionTests.session {
            $0.faults = [.hangAtInflateLimit]
            $0.bodyLimit = 64
        }
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 1), timestamp: 1000, sessionID: Frames.session,
                                 compressType: .zlib)
        var encoder = FrameEncoder()
        var decoder = FrameDecoder(options: DecodeOptions(bodyLimit: 64))
        decoder.append(encoder.encode(header, fields: [TLVField(tag: .file, bytes: Array(repeating: 0, count: 58))]))
        let atLimit = try! decoder.nextFrame()!
        #expect(atLimit.payload.count == 64)
        #expect(session.receive(Frames.make(.heartbeat, counter: 1), now: 1000).sent.count == 1)
        #expect(session.receive(atLimit, now: 1000).isEmpty)
        #expect(session.receive(Frames.make(.heartbeat, counter: 2), now: 1000).isEmpty, "the connection answers nothing more")
    }

    @Test("refuse-empty-deep-container refuses an empty container three containers down with TLV_TOO_DEEP, and closes")
    func refuse() {
        var session = PeerSessionTests.session { $0.faults = [.refuseEmptyDeepContainer] }
        let two = Frames.make(.data, counter: 1, fields: [Self.nested(2, around: TLVField(tag: .container, content: .fields([])))])
        #expect(session.receive(two, now: 1000).sent.count == 1)
        let three = Frames.make(.data, counter: 2, fields: [Self.nested(3, around: TLVField(tag: .container, content: .fields([])))])
        let actions = session.receive(three, now: 1000)
        #expect(actions.closes)
        let report = actions.sent.first.flatMap { sent in
            TLVSequence(sent.payload).lazy.compactMap { if case let .error(report) = $0.interpreted { report } else { nil } }.first
        }
        #expect(report?.code == ErrorCode.tlvTooDeep.rawValue)
    }
}
