import DecafSession
import DecafTestSupport
import DecafWire
import Testing

/// A client session driven by hand: a clock the test moves, seeded randomness, and every action
/// kept, as a shell would see them.
struct ClientHarness {
    var session: ClientSession
    var elapsed: Duration = .zero
    var unixSeconds: UInt32 = 1_700_000_000
    var random = SeededGenerator(seed: 7)

    init(_ change: (inout ClientConfiguration) -> Void = { _ in }) {
        var configuration = ClientConfiguration()
        configuration.session = SessionID(rawValue: 0x0042)
        configuration.ackTimeout = .milliseconds(500)
        change(&configuration)
        session = ClientSession(configuration: configuration)
    }

    var now: SessionTime { SessionTime(elapsed: elapsed, unixSeconds: unixSeconds) }

    mutating func advance(_ duration: Duration) { elapsed += duration }

    /// Connects and completes the handshake with `response`; returns what that did.
    @discardableResult
    mutating func open(agreeing features: FeatureFlags = .known, version: ProtocolVersion = .v1_0) -> [ClientAction] {
        var actions = session.start(at: now) + session.connected(at: now)
        let request = actions.sent[0].header
        actions += session.received(Frames.ack(of: request), at: now)
        actions += session.received(Frames.make(.control, counter: 1, fields: [VersionResponse(version: version, features: features).field]), at: now)
        return actions
    }

    mutating func submit(_ id: Int, _ text: String = "hello") -> [ClientAction] {
        session.submit(ClientMessage(id: id, payload: TLVEncoder.encode([TLVField(tag: .text, text: text)])), at: now)
    }

    mutating func fire(_ timer: ClientTimer) -> [ClientAction] { session.timerFired(timer, at: now, random: &random) }
    mutating func lost() -> [ClientAction] { session.connectionLost(at: now, random: &random) }
    mutating func refused() -> [ClientAction] { session.connectFailed(at: now, random: &random) }
}

extension Frames {
    /// The server's ACK of a frame the client sent.
    static func ack(of header: FrameHeader) -> Frame {
        make(.ack, counter: header.sequence.counter, category: header.sequence.category, session: header.sessionID)
    }
}

extension [ClientAction] {
    var sent: [OutgoingFrame] { compactMap { if case let .send(frame) = $0 { frame } else { nil } } }
    var events: [ClientEvent] { compactMap { if case let .report(event) = $0 { event } else { nil } } }
    var closes: Bool { contains(.close) }
    var connects: Bool { contains(.connect) }
    func scheduled(_ timer: ClientTimer) -> Duration? {
        compactMap { if case let .schedule(scheduled, after) = $0, scheduled == timer { after } else { nil } }.last
    }
    var acks: [OutgoingFrame] { sent.filter { $0.header.messageType == .ack } }
    var data: [OutgoingFrame] { sent.filter { $0.header.messageType == .data } }
}

@Suite("Client session: handshake")
struct ClientHandshakeTests {
    @Test("the first frame is a CONTROL VERSION_REQUEST with BASIC, in a 1.0 header, retransmitted on the ACK timeout (HS-1, VER-3)")
    func firstFrame() throws {
        var client = ClientHarness { $0.version = ProtocolVersion(major: 1, minor: 2); $0.features = [.readReceipt] }
        #expect(client.session.start(at: client.now) == [.connect])
        let actions = client.session.connected(at: client.now)
        let request = try #require(actions.sent.first)
        #expect(actions.sent.count == 1)
        #expect(request.header.messageType == .control && request.header.sequence == SequenceNumber(category: .control, counter: 1))
        #expect(request.header.version == .v1_0)
        #expect(request.payload == TLVEncoder.encode([VersionRequest(version: ProtocolVersion(major: 1, minor: 2), features: [.basic, .readReceipt]).field]))
        #expect(actions.scheduled(.retransmit) == .milliseconds(500))
    }

    @Test("ACK and VERSION_RESPONSE are taken in either order, the response ACKed once, nothing counted twice (HS-2, EX-1)",
          arguments: [true, false])
    func eitherOrder(ackFirst: Bool) throws {
        var client = ClientHarness()
        let request = (client.session.start(at: client.now) + client.session.connected(at: client.now)).sent[0].header
        _ = client.submit(1)
        let response = Frames.make(.control, counter: 9, fields: [VersionResponse(version: .v1_0, features: [.basic]).field])
        let ack = Frames.ack(of: request)
        let actions = client.session.received(ackFirst ? ack : response, at: client.now)
            + client.session.received(ackFirst ? response : ack, at: client.now)
        #expect(actions.events.contains(.requestAcknowledged))
        #expect(actions.events.contains { if case .handshake(VersionResponse(version: .v1_0, features: [.basic]), _) = $0 { true } else { false } })
        #expect(actions.acks.map(\.header.sequence) == [response.header.sequence])
        #expect(actions.data.count == 1, "the message waited for the handshake and went out after it")
        #expect(client.session.statistics.duplicateAcks == 0)
    }

    @Test("after the handshake the client writes the agreed version (VER-3)")
    func agreedVersion() {
        var client = ClientHarness { $0.version = ProtocolVersion(major: 1, minor: 3) }
        client.open(version: ProtocolVersion(major: 1, minor: 1))
        #expect(client.submit(1).data.map(\.header.version) == [ProtocolVersion(major: 1, minor: 1)])
    }

    @Test("another major: the client stops, gives its messages up and does not reconnect (HS-2)")
    func otherMajor() {
        var client = ClientHarness()
        _ = client.session.start(at: client.now) + client.session.connected(at: client.now)
        _ = client.submit(1)
        let actions = client.session.received(Frames.make(.control, counter: 1, fields: [VersionResponse(version: ProtocolVersion(major: 2, minor: 0), features: []).field]), at: client.now)
        #expect(actions.events.contains(.incompatible(VersionResponse(version: ProtocolVersion(major: 2, minor: 0), features: []))))
        #expect(actions.events.contains { if case .failed(id: 1, _) = $0 { true } else { false } })
        #expect(actions.events.contains(.finished) && actions.closes)
        #expect(client.lost().isEmpty, "a stopped client does not reconnect")
    }
}

@Suite("Client session: exchange")
struct ClientExchangeTests {
    @Test("DATA goes out under NORMAL counters with the clock's timestamp; an ACK settles it with its latency")
    func dataAndAck() throws {
        var client = ClientHarness()
        client.open()
        let first = try #require(client.submit(1).data.first)
        let second = try #require(client.submit(2).data.first)
        #expect(first.header.sequence == SequenceNumber(category: .normal, counter: 1) && second.header.sequence.counter == 2)
        #expect(first.header.timestamp == client.unixSeconds && first.header.sessionID == SessionID(rawValue: 0x42))
        client.advance(.milliseconds(30))
        let actions = client.session.received(Frames.ack(of: first.header), at: client.now)
        #expect(actions.events == [.acknowledged(id: 1, latency: .milliseconds(30), retransmissions: 0)])
    }

    @Test("the window caps what is in flight; an ACK lets the next one out")
    func window() {
        var client = ClientHarness { $0.window = 2 }
        client.open()
        let sent = (1...4).flatMap { client.submit($0).data }
        #expect(sent.count == 2)
        #expect(client.session.received(Frames.ack(of: sent[0].header), at: client.now).data.map(\.header.sequence.counter) == [3])
    }

    @Test("server DATA, CONTROL, READ_RECEIPT and HEARTBEAT get one ACK each, same sequence and session, empty (EX-1, EX-2)",
          arguments: [MessageType.data, .control, .readReceipt, .heartbeat])
    func acknowledges(type: MessageType) {
        var client = ClientHarness()
        client.open()
        let frame = Frames.make(type, counter: 5)
        let acks = client.session.received(frame, at: client.now).acks
        #expect(acks.count == 1)
        #expect(acks.first?.header == frame.header.acknowledgement(timestamp: client.unixSeconds, version: .v1_0))
        #expect(acks.first?.payload == [])
    }

    @Test("ACKs and undefined types are never acknowledged; the connection stays (EX-3, FRAME-4)")
    func neverAcknowledged() {
        var client = ClientHarness()
        client.open()
        let actions = client.session.received(Frames.make(.ack, counter: 77), at: client.now)
            + client.session.received(Frames.make(MessageType(rawValue: 7), counter: 1), at: client.now)
        #expect(actions.sent.isEmpty && !actions.closes)
    }

    @Test("a repeated DATA frame is ACKed again but delivered once (REPLAY-1)")
    func repeats() {
        var client = ClientHarness()
        client.open()
        let frame = Frames.make(.data, counter: 3, fields: [TLVField(tag: .text, text: "hi")])
        let first = client.session.received(frame, at: client.now)
        let again = client.session.received(frame, at: client.now)
        #expect(first.acks.count == 1 && again.acks.count == 1)
        #expect(first.events.count == 1 && again.events.isEmpty)
        #expect(client.session.statistics.repeats == 1)
    }

    @Test("read receipts go out only when agreed, under the NORMAL counter, and the server's are reported (EX-4)")
    func readReceipts() throws {
        var without = ClientHarness()
        without.open(agreeing: [.basic])
        #expect(!without.session.received(Frames.make(.data, counter: 3), at: without.now).sent.contains { $0.header.messageType == .readReceipt })

        var with = ClientHarness()
        with.open(agreeing: [.basic, .readReceipt])
        let message = try #require(with.submit(1).data.first)
        _ = with.session.received(Frames.ack(of: message.header), at: with.now)
        let receipt = try #require(with.session.received(Frames.make(.data, counter: 3), at: with.now).sent.first { $0.header.messageType == .readReceipt })
        #expect(receipt.header.sequence == SequenceNumber(category: .normal, counter: 2))
        #expect(receipt.payload == TLVEncoder.encode([ReadReceipt(sequence: SequenceNumber(category: .normal, counter: 3)).field]))
        let theirs = with.session.received(Frames.make(.readReceipt, counter: 8, fields: [ReadReceipt(sequence: message.header.sequence).field]), at: with.now)
        #expect(theirs.events == [.readReceipt(id: 1)] && theirs.acks.count == 1)
    }

    @Test("bodies are compressed only when asked and agreed")
    func compression() {
        var agreed = ClientHarness { $0.compress = true }
        agreed.open(agreeing: [.basic, .compression])
        #expect(agreed.submit(1).data.first?.header.compressType == .zlib)
        var refused = ClientHarness { $0.compress = true }
        refused.open(agreeing: [.basic])
        #expect(refused.submit(1).data.first?.header.compressType == CompressType.none)
    }

    @Test("an ERROR from the server is reported and ACKed as the CONTROL frame it is; a protocol error sends an ERROR, then closes (EX-5)")
    func errors() throws {
        var client = ClientHarness()
        client.open()
        let report = ErrorReport(code: ErrorCode.checksumMismatch.rawValue, reason: "bad")
        let actions = client.session.received(Frames.make(.control, counter: 2, fields: [report.field]), at: client.now)
        #expect(actions.events == [.serverError(report)] && actions.acks.count == 1)
        let error = WireError(.badMagic(found: 0), offset: 0)
        let failing = client.session.failed(error, at: client.now)
        #expect(failing.first == .report(.protocolError(error)) && failing.last == .close && failing.count == 3)
        guard case let .send(frame) = failing[1] else {
            Issue.record("no ERROR before the close: \(failing)")
            return
        }
        #expect(frame.header.messageType == .control && frame.header.sequence.category == .control)
        let sent = try #require(TLVDecoder().decode(frame.payload).first)
        #expect(sent.tag == .error && ErrorReport(value: sent.bytes ?? [])?.code == ErrorCode.badMagic.rawValue)
    }

    @Test("a connection that fails before it is made is retried later; nothing is sent, even by a timer that was pending")
    func connectFailedKeepsQuiet() {
        var client = ClientHarness()
        client.open()
        #expect(!client.submit(1).data.isEmpty)
        let lost = client.session.connectFailed(at: client.now, random: &client.random)
        #expect(lost.contains(.report(.disconnected)))
        let fired = client.session.timerFired(.retransmit, at: client.now, random: &client.random)
        #expect(fired.data.isEmpty)
    }
}

@Suite("Client session: resending, reconnecting, heartbeats")
struct ClientTimingTests {
    @Test("an unacknowledged message is resent with the same sequence and timestamp, 3 times, then reported failed (EX-7)")
    func retransmits() throws {
        var client = ClientHarness()
        client.open()
        let original = try #require(client.submit(1).data.first)
        var resent: [OutgoingFrame] = []
        var events: [ClientEvent] = []
        for _ in 0..<5 {
            client.advance(.milliseconds(500))
            client.unixSeconds += 1
            let actions = client.fire(.retransmit)
            resent += actions.data
            events += actions.events
        }
        #expect(resent.count == 3)
        #expect(resent.allSatisfy { $0 == original }, "same sequence, timestamp and body")
        #expect(events.count == 1)
        guard case let .failed(id, reason)? = events.first else {
            Issue.record("no failure reported")
            return
        }
        #expect(id == 1 && reason.contains("4 sends"))
    }

    @Test("nothing is resent after the ACK, and a late ACK after a resend is harmless")
    func lateAck() throws {
        var client = ClientHarness()
        client.open()
        let original = try #require(client.submit(1).data.first)
        client.advance(.milliseconds(500))
        #expect(client.fire(.retransmit).data == [original])
        let ack = Frames.ack(of: original.header)
        #expect(client.session.received(ack, at: client.now).events == [.acknowledged(id: 1, latency: .milliseconds(500), retransmissions: 1)])
        #expect(client.session.received(ack, at: client.now).events.isEmpty)
        client.advance(.seconds(5))
        #expect(client.fire(.retransmit).sent.isEmpty)
        #expect(client.session.statistics.duplicateAcks == 1)
    }

    @Test("a lost connection: backoff with jitter, a new handshake, then the same message with its original sequence and timestamp")
    func reconnects() throws {
        var client = ClientHarness { $0.reconnectBase = .milliseconds(100) }
        client.open()
        let original = try #require(client.submit(1).data.first)
        let lost = client.lost()
        let delay = try #require(lost.scheduled(.reconnect))
        #expect(delay >= .milliseconds(50) && delay <= .milliseconds(100))
        #expect(lost.events.contains(.disconnected))
        client.advance(delay)
        client.unixSeconds += 5
        #expect(client.fire(.reconnect).connects)
        let handshake = client.session.connected(at: client.now)
        #expect(handshake.sent.map(\.header.sequence) == [SequenceNumber(category: .control, counter: 2)])
        let again = client.session.received(Frames.make(.control, counter: 2, fields: [VersionResponse(version: .v1_0, features: .known).field]), at: client.now)
        #expect(again.data == [original])
    }

    @Test("refused connections back off exponentially up to the cap, each wait in the upper half of its step")
    func backoff() throws {
        var client = ClientHarness { $0.reconnectBase = .milliseconds(100); $0.maxDelay = .seconds(1) }
        _ = client.session.start(at: client.now)
        var waits: [Duration] = []
        for _ in 0..<8 {
            waits.append(try #require(client.refused().scheduled(.reconnect)))
            _ = client.fire(.reconnect)
        }
        let steps = [100, 200, 400, 800, 1000, 1000, 1000, 1000].map { Duration.milliseconds($0) }
        for (wait, step) in zip(waits, steps) { #expect(wait >= step / 2 && wait <= step) }
        #expect(Set(waits.suffix(4)).count > 1, "jitter: the capped waits differ")
    }

    @Test("an idle client sends heartbeats at its interval, and a server silent for three intervals is dropped")
    func heartbeats() {
        var client = ClientHarness { $0.heartbeat = .seconds(1) }
        #expect(client.open().scheduled(.heartbeat) == .seconds(1))
        client.advance(.seconds(1))
        let beat = client.fire(.heartbeat)
        #expect(beat.sent.map(\.header.messageType) == [.heartbeat])
        #expect(beat.sent.first?.header.sequence == SequenceNumber(category: .heartbeat, counter: 1))
        client.advance(.seconds(1))
        #expect(client.fire(.heartbeat).sent.count == 1)
        client.advance(.seconds(1))
        #expect(client.fire(.heartbeat).closes, "nothing heard for three intervals")
    }

    @Test("with the input ended, the client finishes once every message is settled, after the read receipts it was promised")
    func finishing() throws {
        var client = ClientHarness()
        client.open(agreeing: [.basic, .readReceipt])
        let message = try #require(client.submit(1).data.first)
        #expect(client.session.endOfInput(at: client.now).events.isEmpty)
        let acked = client.session.received(Frames.ack(of: message.header), at: client.now)
        #expect(acked.scheduled(.linger) == .milliseconds(500), "waits for the read receipt")
        let read = client.session.received(Frames.make(.readReceipt, counter: 2, fields: [ReadReceipt(sequence: message.header.sequence).field]), at: client.now)
        #expect(read.events.contains(.finished) && read.closes)
    }
}

@Suite("Client session: faults")
struct ClientFaultTests {
    @Test("every fault has a name, a summary, and breaks a requirement unless it is a backoff fault or drops its idle connection")
    func catalog() {
        for fault in ClientFault.allCases {
            #expect(!fault.name.isEmpty && !fault.summary.isEmpty)
            #expect(fault.breaks.isEmpty == [.noBackoff, .noJitter, .dropsIdleConnection].contains(fault))
        }
        #expect(ClientFault.allCases.filter { !$0.breaks.isEmpty }.count >= 12)
    }

    @Test("double-ack, acks-an-ack and never-acks-server-data change the ACKs")
    func ackFaults() {
        var double = ClientHarness { $0.faults = [.doubleAck] }
        double.open()
        #expect(double.session.received(Frames.make(.data, counter: 1), at: double.now).acks.count == 2)
        var ackAck = ClientHarness { $0.faults = [.acksAnAck] }
        ackAck.open()
        #expect(ackAck.session.received(Frames.make(.ack, counter: 9), at: ackAck.now).acks.count == 1)
        var silent = ClientHarness { $0.faults = [.neverAcksServerData] }
        silent.open()
        #expect(silent.session.received(Frames.make(.data, counter: 1), at: silent.now).acks.isEmpty)
    }

    @Test("new-sequence-on-resend and no-jitter do what they say")
    func resendAndBackoffFaults() throws {
        var client = ClientHarness { $0.faults = [.newSequenceOnResend] }
        client.open()
        let original = try #require(client.submit(1).data.first)
        client.advance(.milliseconds(500))
        let resent = try #require(client.fire(.retransmit).data.first)
        #expect(resent.header.sequence != original.header.sequence)
        var fixed = ClientHarness { $0.faults = [.noJitter]; $0.reconnectBase = .milliseconds(100) }
        _ = fixed.session.start(at: fixed.now)
        #expect(fixed.refused().scheduled(.reconnect) == .milliseconds(100))
    }
}

/// The client's rare planted faults: each acts only on its deep input, and leaves every other frame to the brief.
@Suite("Client session: rare planted faults")
struct ClientRareFaultTests {
    @Test("crash-on-deep-empty-text aborts on an empty TEXT three containers down, and only there")
    func crash() {
        var client = ClientHarness { $0.faults = [.crashOnDeepEmptyText] }
        client.open()
        let shallow = Frames.make(.data, counter: 1, fields: [PeerRareFaultTests.nested(2, around: TLVField(tag: .text, text: ""))])
        #expect(client.session.received(shallow, at: client.now).acks.count == 1, "two down: acknowledged")
        let full = Frames.make(.data, counter: 2, fields: [PeerRareFaultTests.nested(3, around: TLVField(tag: .text, text: "x"))])
        #expect(client.session.received(full, at: client.now).acks.count == 1, "a TEXT with a value: acknowledged")
        let deep = Frames.make(.data, counter: 3, fields: [PeerRareFaultTests.nested(3, around: TLVField(tag: .text, text: ""))])
        #expect(client.session.received(deep, at: client.now).contains { if case .abort = $0 { true } else { false } })
    }

    @Test("hang-at-inflate-limit handles nothing more once a zlib body inflates to exactly the limit")
    func hang() throws {
        var client = ClientHarness {
            $0.faults = [.hangAtInflateLimit]
            $0.decodeOptions.bodyLimit = 64
        }
        client.open()
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 1), timestamp: 1000, sessionID: Frames.session,
                                 compressType: .zlib)
        var encoder = FrameEncoder()
        var decoder = FrameDecoder(options: DecodeOptions(bodyLimit: 64))
        decoder.append(encoder.encode(header, fields: [TLVField(tag: .file, bytes: Array(repeating: 0, count: 57))]))
        let belowLimit = try #require(try decoder.nextFrame())
        #expect(belowLimit.payload.count == 63)
        #expect(client.session.received(belowLimit, at: client.now).acks.count == 1)
        decoder.append(encoder.encode(header, fields: [TLVField(tag: .file, bytes: Array(repeating: 0, count: 58))]))
        let atLimit = try #require(try decoder.nextFrame())
        #expect(atLimit.payload.count == 64)
        #expect(client.session.received(atLimit, at: client.now).isEmpty)
        #expect(client.session.received(Frames.make(.heartbeat, counter: 2), at: client.now).isEmpty, "nothing more is handled")
    }

    @Test("refuse-empty-deep-container refuses an empty container three containers down with TLV_TOO_DEEP, and closes")
    func refuse() {
        var client = ClientHarness { $0.faults = [.refuseEmptyDeepContainer] }
        client.open()
        let two = Frames.make(.data, counter: 1, fields: [PeerRareFaultTests.nested(2, around: TLVField(tag: .container, content: .fields([])))])
        #expect(client.session.received(two, at: client.now).acks.count == 1)
        let three = Frames.make(.data, counter: 2, fields: [PeerRareFaultTests.nested(3, around: TLVField(tag: .container, content: .fields([])))])
        let actions = client.session.received(three, at: client.now)
        #expect(actions.closes && actions.acks.isEmpty)
        #expect(actions.events.contains { if case let .protocolError(error) = $0 { error.code == .tlvTooDeep } else { false } })
    }
}
