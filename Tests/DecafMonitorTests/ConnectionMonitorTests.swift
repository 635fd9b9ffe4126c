import DecafCapture
import DecafMonitor
import DecafWire
import Testing

/// The rules of one connection, played as a capture would show them: a verdict only with proof on
/// the wire, and nothing judged where the capture may have lost the evidence.
@Suite("connection monitor")
struct ConnectionMonitorTests {
    /// Builds the events of a conversation, numbering frames as a capture does.
    struct Conversation {
        var events: [MonitorEvent] = []
        var number = 0

        static let session = SessionID(rawValue: 0x444C)

        @discardableResult
        mutating func send(_ direction: TCPDirection, _ type: MessageType, _ sequence: SequenceNumber, bodyLength: UInt32 = 4,
                           acceptance: MonitoredFrame.Acceptance = .byEveryReceiver, request: VersionRequest? = nil,
                           response: VersionResponse? = nil, error: ErrorReport? = nil, receipt: ReadReceipt? = nil,
                           timestamp: UInt32 = 1_700_000_000, at seconds: Double? = nil) -> MonitoredFrame {
            number += 1
            let header = FrameHeader(messageType: type, sequence: sequence, timestamp: timestamp, sessionID: Self.session,
                                     bodyLength: type == .ack ? 0 : bodyLength)
            let time = seconds.map(Self.time) ?? CaptureTime(seconds: 1_700_000_000, nanoseconds: UInt32(number) * 1000)
            var frame = MonitoredFrame(number: number, packet: number, time: time,
                                       header: header, acceptance: acceptance, versionRequest: request, versionResponse: response, errorReport: error)
            frame.readReceipt = receipt
            events.append(.frame(direction, frame))
            return frame
        }

        mutating func ack(_ direction: TCPDirection, _ sequence: SequenceNumber, at seconds: Double? = nil) {
            send(direction, .ack, sequence, at: seconds)
        }

        /// The capture's time `seconds` after its start.
        static func time(_ seconds: Double) -> CaptureTime {
            CaptureTime(seconds: 1_700_000_000 + Int64(seconds), nanoseconds: UInt32((seconds - seconds.rounded(.down)) * 1e9))
        }

        /// A client's version request for 1.0 with `features`, and the server's ACK and answer.
        mutating func handshake(offering features: FeatureFlags = [.basic, .readReceipt], agreeing agreed: FeatureFlags = [.basic, .readReceipt]) {
            send(.clientToServer, .control, Self.control(1), request: VersionRequest(version: .v1_0, features: features))
            ack(.serverToClient, Self.control(1))
            send(.serverToClient, .control, Self.control(1), response: VersionResponse(version: .v1_0, features: agreed))
            ack(.clientToServer, Self.control(1))
        }

        /// The sender of `direction` closes (or resets) the connection `seconds` after the first frame.
        mutating func end(_ direction: TCPDirection, after seconds: Double, reset: Bool = false) {
            number += 1
            events.append(.ended(direction, MonitorEvidence(packet: number, time: Self.time(seconds), ending: reset ? .reset : .fin)))
        }

        func judged(closing: Bool = true) -> ConnectionMonitor {
            var monitor = ConnectionMonitor(connection: 1)
            for event in events { monitor.handle(event) }
            if closing { monitor.handle(.closed) }
            return monitor
        }

        static func normal(_ counter: UInt32) -> SequenceNumber { SequenceNumber(category: .normal, counter: counter) }
        static func control(_ counter: UInt32) -> SequenceNumber { SequenceNumber(category: .control, counter: counter) }
    }

    /// What failed, as (end, requirement) pairs.
    static func failures(_ monitor: ConnectionMonitor) -> [String] {
        monitor.verdicts.map { "\($0.end) \($0.requirement.rawValue)" }
    }

    @Test("a conversation that keeps every rule fails nothing, and counts what each end met")
    func clean() {
        var talk = Conversation()
        talk.handshake()
        for counter: UInt32 in 1...3 {
            talk.send(.clientToServer, .data, Conversation.normal(counter))
            talk.ack(.serverToClient, Conversation.normal(counter))
            talk.send(.serverToClient, .readReceipt, Conversation.normal(counter))
            talk.ack(.clientToServer, Conversation.normal(counter))
        }
        talk.send(.clientToServer, .heartbeat, SequenceNumber(category: .heartbeat, counter: 1))
        talk.ack(.serverToClient, SequenceNumber(category: .heartbeat, counter: 1))
        let monitor = talk.judged()
        #expect(monitor.verdicts.isEmpty)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .server, requirement: .ex1)]?.passed == 4)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .client, requirement: .ex1)]?.passed == 4)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .server, requirement: .ex2)]?.passed == 1)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .server, requirement: .hs2)]?.passed == 1)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .client, requirement: .hs1)]?.passed == 1)
    }

    @Test("a frame skipped by the ACKs fails its receiver; one unanswered when the capture ends is not judged")
    func missingAck() {
        var skipped = Conversation()
        skipped.handshake()
        skipped.send(.clientToServer, .data, Conversation.normal(1))
        skipped.send(.clientToServer, .data, Conversation.normal(2))
        skipped.ack(.serverToClient, Conversation.normal(2))
        #expect(Self.failures(skipped.judged()) == ["server EX-1"])

        var last = Conversation()
        last.handshake()
        last.send(.clientToServer, .data, Conversation.normal(1))
        let monitor = last.judged()
        #expect(monitor.verdicts.isEmpty)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .server, requirement: .ex1)]?.notJudged == 1)
    }

    @Test("an ACK of a sequence never sent, a second ACK, an ACK of an ACK, and a bare ACK's form")
    func wrongAcks() {
        var wrong = Conversation()
        wrong.handshake()
        wrong.send(.clientToServer, .data, Conversation.normal(1))
        wrong.ack(.serverToClient, Conversation.normal(2))
        #expect(Self.failures(wrong.judged()).contains("server EX-1"))

        var twice = Conversation()
        twice.handshake()
        twice.send(.clientToServer, .data, Conversation.normal(1))
        twice.ack(.serverToClient, Conversation.normal(1))
        twice.ack(.serverToClient, Conversation.normal(1))
        #expect(Self.failures(twice.judged()) == ["server EX-1"])

        var resent = Conversation()
        resent.handshake()
        resent.send(.clientToServer, .data, Conversation.normal(1))
        resent.send(.clientToServer, .data, Conversation.normal(1))
        resent.ack(.serverToClient, Conversation.normal(1))
        resent.ack(.serverToClient, Conversation.normal(1))
        #expect(resent.judged().verdicts.isEmpty, "a repeat is acknowledged again (REPLAY-1)")

        var ackOfAck = Conversation()
        ackOfAck.handshake()
        ackOfAck.send(.serverToClient, .data, Conversation.normal(7))
        ackOfAck.ack(.clientToServer, Conversation.normal(7))
        ackOfAck.ack(.serverToClient, Conversation.normal(7))
        #expect(Self.failures(ackOfAck.judged()) == ["server EX-3"])

        // Both ends' NORMAL/1: the server's ACK of the client's DATA shares its sequence with the
        // server's own DATA, so an extra ACK from the client answers either. Its other ACKs
        // decide: a client that acknowledged everything twice was also said to acknowledge ACKs.
        func shared(alsoAcksAnAck: Bool) -> Conversation {
            var talk = Conversation()
            talk.handshake()
            talk.send(.clientToServer, .data, Conversation.normal(1))
            talk.ack(.serverToClient, Conversation.normal(1))
            talk.send(.serverToClient, .data, Conversation.normal(1))
            talk.ack(.clientToServer, Conversation.normal(1))
            talk.ack(.clientToServer, Conversation.normal(1))
            if alsoAcksAnAck {
                talk.send(.clientToServer, .data, Conversation.normal(2))
                talk.ack(.serverToClient, Conversation.normal(2))
                talk.ack(.clientToServer, Conversation.normal(2))
            }
            return talk
        }
        #expect(shared(alsoAcksAnAck: true).judged().verdicts.map(\.cause) == ["ack-of-unacknowledged-type", "ack-of-unacknowledged-type"])
        var alwaysTwice = shared(alsoAcksAnAck: false)
        alwaysTwice.send(.serverToClient, .data, Conversation.normal(3))
        alwaysTwice.ack(.clientToServer, Conversation.normal(3))
        alwaysTwice.ack(.clientToServer, Conversation.normal(3))
        #expect(alwaysTwice.judged().verdicts.map(\.cause) == ["ack-again", "ack-again"], "it acknowledges twice where nothing else shares the sequence")
        // Neither shown elsewhere: the later of the two, here the server's DATA.
        #expect(shared(alsoAcksAnAck: false).judged().verdicts.map(\.cause) == ["ack-again"])
    }

    @Test("an end whose ACKs all carry the counter plus one is one defect, not the ACKs never sent, second ACKs and skipped frames it leaves")
    func counterPlusOne() {
        var talk = Conversation()
        talk.send(.clientToServer, .control, Conversation.control(1), request: VersionRequest(version: .v1_0, features: [.basic]))
        talk.ack(.serverToClient, Conversation.control(2))
        talk.send(.serverToClient, .control, Conversation.control(1), response: VersionResponse(version: .v1_0, features: [.basic]))
        talk.ack(.clientToServer, Conversation.control(1))
        for counter: UInt32 in 1...3 {
            talk.send(.clientToServer, .data, Conversation.normal(counter))
        }
        for counter: UInt32 in 1...3 {
            talk.ack(.serverToClient, Conversation.normal(counter + 1))
        }
        let monitor = talk.judged()
        #expect(monitor.verdicts.map(\.cause) == ["ack-counter-plus-one"])
        #expect(monitor.verdicts.first?.message.contains("all 4 of its ACKs read so") == true, "\(monitor.verdicts)")
    }

    @Test("a gap or a stream joined mid-way turns a would-be failure into not judged")
    func lostEvidence() {
        var gap = Conversation()
        gap.handshake()
        gap.events.append(.gap(.clientToServer))
        gap.ack(.serverToClient, Conversation.normal(9))
        #expect(gap.judged().verdicts.isEmpty)

        var gapInAcks = Conversation()
        gapInAcks.handshake()
        gapInAcks.send(.clientToServer, .data, Conversation.normal(1))
        gapInAcks.send(.clientToServer, .data, Conversation.normal(2))
        gapInAcks.events.append(.gap(.serverToClient))
        gapInAcks.ack(.serverToClient, Conversation.normal(2))
        #expect(gapInAcks.judged().verdicts.isEmpty, "the lost bytes may hold the first frame's ACK")

        var joined = Conversation()
        joined.events.append(.joinedMidStream(.clientToServer))
        joined.send(.clientToServer, .data, Conversation.normal(5))
        joined.ack(.serverToClient, Conversation.normal(4))
        joined.ack(.serverToClient, Conversation.normal(5))
        let monitor = joined.judged()
        #expect(monitor.verdicts.isEmpty)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .client, requirement: .hs1)]?.notJudged == 1)
    }

    @Test("a frame no receiver may take fails its sender; a receiver that acknowledges it or reads past it without an ERROR fails the frame's rule, one that said an ERROR and reads on EX-5")
    func refusedFrames() {
        let bad = WireError(.checksumMismatch(stored: 1, computed: 2), offset: 24)
        var keptOpen = Conversation()
        keptOpen.handshake()
        keptOpen.send(.clientToServer, .data, Conversation.normal(1), acceptance: .byNoReceiver(bad))
        keptOpen.send(.clientToServer, .data, Conversation.normal(2))
        keptOpen.ack(.serverToClient, Conversation.normal(2))
        #expect(Self.failures(keptOpen.judged()) == ["client CRC-1", "server CRC-2"], "it took the frame: one cause")
        keptOpen.events.insert(.frame(.serverToClient, MonitoredFrame(number: 99, packet: 99, time: CaptureTime(seconds: 1_700_000_000, nanoseconds: 0),
                                                                      header: FrameHeader(messageType: .control, sequence: Conversation.control(2), timestamp: 1_700_000_000,
                                                                                          sessionID: Conversation.session, bodyLength: 8),
                                                                      acceptance: .byEveryReceiver, errorReport: ErrorReport(code: ErrorCode.checksumMismatch.rawValue, reason: "bad"))),
                               at: keptOpen.events.count - 2)
        #expect(Self.failures(keptOpen.judged()).contains("server EX-5"), "it said the ERROR and read on")

        var acked = Conversation()
        acked.handshake()
        acked.send(.clientToServer, .data, Conversation.normal(1), acceptance: .byNoReceiver(bad))
        acked.ack(.serverToClient, Conversation.normal(1))
        #expect(Self.failures(acked.judged()) == ["client CRC-1", "server CRC-2"])

        var choice = Conversation()
        choice.handshake()
        choice.send(.clientToServer, .data, Conversation.normal(1), acceptance: .byReceiversChoice)
        choice.ack(.serverToClient, Conversation.normal(1))
        choice.send(.clientToServer, .data, Conversation.normal(2), acceptance: .byReceiversChoice)
        #expect(choice.judged().verdicts.isEmpty, "a receiver may take it or refuse it")
    }

    @Test("the handshake: a first frame that is not the request, an answer outside what any server may agree, read receipts not agreed")
    func handshake() {
        var noRequest = Conversation()
        noRequest.send(.clientToServer, .data, Conversation.normal(1))
        noRequest.ack(.serverToClient, Conversation.normal(1))
        let first = noRequest.judged()
        #expect(Self.failures(first) == ["client HS-1"])
        #expect(first.verdicts.first?.level == .recommended)

        var extra = Conversation()
        extra.handshake(offering: [.basic], agreeing: [.basic, .compression])
        #expect(Self.failures(extra.judged()) == ["server HS-2"])

        var receipts = Conversation()
        receipts.handshake(offering: [.basic], agreeing: [.basic])
        receipts.send(.clientToServer, .data, Conversation.normal(1))
        receipts.ack(.serverToClient, Conversation.normal(1))
        receipts.send(.serverToClient, .readReceipt, Conversation.normal(1))
        receipts.ack(.clientToServer, Conversation.normal(1))
        #expect(Self.failures(receipts.judged()) == ["server EX-4"])

        var unanswered = Conversation()
        unanswered.send(.clientToServer, .control, Conversation.control(1), request: VersionRequest(version: .v1_0, features: [.basic]))
        unanswered.send(.clientToServer, .data, Conversation.normal(1))
        unanswered.ack(.serverToClient, Conversation.normal(1))
        #expect(Self.failures(unanswered.judged()) == ["server EX-1", "server HS-2"])
    }

    @Test("memory stays bounded on a long connection: what is forgotten to stay within it is not judged, never failed")
    func bounded() {
        var talk = Conversation()
        talk.handshake()
        for counter in 1...UInt32(10_050) {
            talk.send(.clientToServer, .data, Conversation.normal(counter))
            talk.ack(.serverToClient, Conversation.normal(counter))
        }
        // Once answered frames were forgotten, a second ACK of an early frame may answer a resend.
        talk.ack(.serverToClient, Conversation.normal(1))
        let monitor = talk.judged()
        #expect(monitor.verdicts.isEmpty)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .server, requirement: .ex1)]?.passed == 10_051)
        #expect(monitor.tally.counts[MonitorTally.Key(end: .server, requirement: .ex1)]?.notJudged == 1)

        // A counter above every one sent in its category was never sent, whatever was forgotten.
        talk.ack(.serverToClient, Conversation.normal(20_000))
        #expect(Self.failures(talk.judged()) == ["server EX-1"])
    }

    @Test("a second READ_RECEIPT for a message is a delivery twice (REPLAY-1); a resent receipt is not, nor one for a new message with the same sequence")
    func deliveredTwice() {
        var talk = Conversation()
        talk.handshake()
        talk.send(.clientToServer, .data, Conversation.normal(1))
        talk.ack(.serverToClient, Conversation.normal(1))
        talk.send(.serverToClient, .readReceipt, Conversation.normal(1), receipt: ReadReceipt(sequence: Conversation.normal(1)))
        talk.send(.serverToClient, .readReceipt, Conversation.normal(1), receipt: ReadReceipt(sequence: Conversation.normal(1)))
        talk.ack(.clientToServer, Conversation.normal(1))
        talk.ack(.clientToServer, Conversation.normal(1))
        #expect(talk.judged().verdicts.isEmpty, "the same receipt sent again")
        talk.send(.clientToServer, .data, Conversation.normal(1))
        talk.ack(.serverToClient, Conversation.normal(1))
        talk.send(.serverToClient, .readReceipt, Conversation.normal(2), receipt: ReadReceipt(sequence: Conversation.normal(1)))
        talk.ack(.clientToServer, Conversation.normal(2))
        #expect(Self.failures(talk.judged()) == ["server REPLAY-1"])

        // The same sequence with another timestamp is another message: its receipt is its own.
        var again = Conversation()
        again.handshake()
        again.send(.clientToServer, .data, Conversation.normal(1))
        again.ack(.serverToClient, Conversation.normal(1))
        again.send(.serverToClient, .readReceipt, Conversation.normal(1), receipt: ReadReceipt(sequence: Conversation.normal(1)))
        again.ack(.clientToServer, Conversation.normal(1))
        again.send(.clientToServer, .data, Conversation.normal(1), timestamp: 1_700_000_001)
        again.ack(.serverToClient, Conversation.normal(1))
        again.send(.serverToClient, .readReceipt, Conversation.normal(2), receipt: ReadReceipt(sequence: Conversation.normal(1)))
        again.ack(.clientToServer, Conversation.normal(2))
        #expect(again.judged().verdicts.isEmpty)
    }

    @Test("a mistake repeated on every frame is listed up to a limit and counted past it: a connection's memory does not grow with it")
    func boundedFailures() {
        var talk = Conversation()
        talk.handshake(offering: [.basic], agreeing: [.basic])
        for counter in 1...UInt32(300) {
            talk.send(.serverToClient, .readReceipt, Conversation.normal(counter))
            talk.ack(.clientToServer, Conversation.normal(counter))
        }
        let monitor = talk.judged()
        #expect(monitor.verdicts.count == ConnectionMonitor.verdictLimit)
        #expect(monitor.verdicts.allSatisfy { $0.cause == "read-receipt-unagreed" })
        #expect(monitor.verdictsNotListed == 300 - ConnectionMonitor.verdictLimit)
    }

    @Test("nothing after one's own ERROR")
    func afterError() {
        var talk = Conversation()
        talk.handshake()
        talk.send(.serverToClient, .control, Conversation.control(2), error: ErrorReport(code: ErrorCode.checksumMismatch.rawValue, reason: "bad"))
        talk.ack(.clientToServer, Conversation.control(2))
        talk.send(.serverToClient, .data, Conversation.normal(1))
        talk.send(.serverToClient, .data, Conversation.normal(2))
        #expect(Self.failures(talk.judged(closing: false)) == ["server EX-5"], "said once")
    }

    /// The conform server suite waits for a close after an ERROR, then closes itself: a server
    /// that keeps the connection open (keep-open-on-error, keep-open-on-bad-magic) showed only in
    /// a capture's FINs, which the monitor did not read.
    @Test("a close owed after one's own ERROR, a frame no receiver takes or a response of another major: made, kept open past the other end's wait, or not judged")
    func closesOwed() {
        let bad = WireError(.checksumMismatch(stored: 1, computed: 2), offset: 24)
        let error = ErrorReport(code: ErrorCode.checksumMismatch.rawValue, reason: "bad")
        func refused(serverSaysError: Bool) -> Conversation {
            var talk = Conversation()
            talk.handshake()
            talk.send(.clientToServer, .data, Conversation.normal(1), acceptance: .byNoReceiver(bad))
            if serverSaysError { talk.send(.serverToClient, .control, Conversation.control(2), error: error) }
            return talk
        }
        var keptOpen = refused(serverSaysError: true)
        keptOpen.end(.clientToServer, after: 2)
        let open = keptOpen.judged()
        #expect(Self.failures(open) == ["client CRC-1", "server EX-5"])
        #expect(open.verdicts.last?.cause == "keeps-open-after-error")
        #expect(open.verdicts.last?.evidence.last?.ending == .fin, "the client's FIN is the proof")

        var closed = refused(serverSaysError: true)
        closed.end(.serverToClient, after: 0.01)
        closed.end(.clientToServer, after: 2)
        let made = closed.judged()
        #expect(Self.failures(made) == ["client CRC-1"])
        #expect(made.tally.counts[MonitorTally.Key(end: .server, requirement: .ex5)]?.passed == 1)

        var soon = refused(serverSaysError: true)
        soon.end(.clientToServer, after: 0.5, reset: true)
        let early = soon.judged()
        #expect(Self.failures(early) == ["client CRC-1"], "the client did not wait the monitor's second")
        #expect(early.tally.counts[MonitorTally.Key(end: .server, requirement: .ex5)]?.notJudged == 1)

        var silent = refused(serverSaysError: false)
        silent.end(.clientToServer, after: 3)
        #expect(silent.judged().verdicts.last?.cause == "keeps-open-after-unreadable-frame")

        var readOn = refused(serverSaysError: true)
        readOn.send(.clientToServer, .data, Conversation.normal(2))
        readOn.ack(.serverToClient, Conversation.normal(2))
        let saidByReading = readOn.judged().verdicts.map(\.cause)
        readOn.end(.clientToServer, after: 3)
        #expect(readOn.judged().verdicts.map(\.cause) == saidByReading, "reading on already said it: once")

        var otherMajor = Conversation()
        otherMajor.send(.clientToServer, .control, Conversation.control(1), request: VersionRequest(version: .v1_0, features: [.basic]))
        otherMajor.send(.serverToClient, .control, Conversation.control(1), response: VersionResponse(version: ProtocolVersion(major: 2, minor: 0), features: []))
        otherMajor.end(.clientToServer, after: 1.5)
        #expect(otherMajor.judged().verdicts.map(\.cause) == ["keeps-open-after-closing-response"])

        // Its FIN comes back to the capture point a round trip after the frame: a client 2 s away.
        func far(closingAfter seconds: Double) -> ConnectionMonitor {
            var talk = Conversation()
            talk.handshake()
            talk.send(.serverToClient, .data, Conversation.normal(1), at: 1)
            talk.ack(.clientToServer, Conversation.normal(1), at: 3)
            talk.send(.serverToClient, .data, Conversation.normal(2), acceptance: .byNoReceiver(bad), at: 4)
            talk.end(.serverToClient, after: 4 + seconds)
            return talk.judged()
        }
        #expect(far(closingAfter: 2.5).verdicts.map(\.cause) == ["sends-unreadable-frame"], "within a second and its round trip")
        #expect(far(closingAfter: 3.5).verdicts.map(\.cause) == ["sends-unreadable-frame", "keeps-open-after-unreadable-frame"])

        var neither = refused(serverSaysError: true)
        #expect(Self.failures(neither.judged()) == ["client CRC-1"], "the capture ended first")
        neither.end(.serverToClient, after: 5)
        #expect(Self.failures(neither.judged()) == ["client CRC-1"], "late, but nobody waited on it")
    }

    @Test("a sequence is one frame's (SEQ-1); a resend keeps its body and, recommended, its timestamp (EX-7); a copy after the ACK, or with the ACK direction not whole, is not judged")
    func resends() {
        var same = Conversation()
        same.handshake()
        same.send(.clientToServer, .data, Conversation.normal(1))
        same.send(.clientToServer, .data, Conversation.normal(1))
        same.ack(.serverToClient, Conversation.normal(1))
        let kept = same.judged()
        #expect(kept.verdicts.isEmpty)
        #expect(kept.tally.counts[MonitorTally.Key(end: .client, requirement: .ex7)]?.passed == 1)

        var newTimestamp = Conversation()
        newTimestamp.handshake()
        newTimestamp.send(.clientToServer, .data, Conversation.normal(1))
        newTimestamp.send(.clientToServer, .data, Conversation.normal(1), timestamp: 1_700_000_003)
        let warned = newTimestamp.judged()
        #expect(warned.verdicts.map(\.cause) == ["resent-with-new-timestamp"] && warned.verdicts.first?.level == .recommended)

        var anotherBody = Conversation()
        anotherBody.handshake()
        anotherBody.send(.clientToServer, .data, Conversation.normal(1))
        anotherBody.send(.clientToServer, .data, Conversation.normal(1), bodyLength: 9)
        #expect(Self.failures(anotherBody.judged()) == ["client SEQ-1"], "two frames under one sequence")
        #expect(anotherBody.judged().verdicts.first?.message.contains("or a resend of it with its body changed") == true)

        var reused = Conversation()
        reused.handshake()
        reused.send(.clientToServer, .data, Conversation.normal(1))
        reused.ack(.serverToClient, Conversation.normal(1))
        reused.send(.clientToServer, .data, Conversation.normal(1), bodyLength: 9)
        #expect(Self.failures(reused.judged()) == ["client SEQ-1"], "a new message under a sequence already acknowledged")

        var afterAck = Conversation()
        afterAck.handshake()
        afterAck.send(.clientToServer, .data, Conversation.normal(1))
        afterAck.ack(.serverToClient, Conversation.normal(1))
        afterAck.send(.clientToServer, .data, Conversation.normal(1), timestamp: 1_700_000_003)
        #expect(!afterAck.judged().verdicts.contains { $0.requirement == .ex7 }, "no resend: its first sending was acknowledged")

        newTimestamp.events.insert(.gap(.serverToClient), at: 0)
        #expect(newTimestamp.judged().verdicts.isEmpty, "the ACK may be what the capture lost")
    }

    /// Through the subway profile the proxy dropped a server's VERSION_RESPONSE; the client sent
    /// its request again, and the server, which remembers it, acknowledged the repeat without a
    /// second answer (make weak: 2 false failures of HS-2).
    @Test("a version request sent again (its answer lost) is a repeat: acknowledged, it needs no second answer; a new request does")
    func repeatedRequest() {
        var talk = Conversation()
        talk.handshake()
        talk.send(.clientToServer, .control, Conversation.control(1), request: VersionRequest(version: .v1_0, features: [.basic, .readReceipt]))
        talk.ack(.serverToClient, Conversation.control(1))
        talk.send(.clientToServer, .data, Conversation.normal(1))
        talk.ack(.serverToClient, Conversation.normal(1))
        #expect(talk.judged().verdicts.isEmpty, "\(talk.judged().verdicts.map(\.message))")
        var fresh = Conversation()
        fresh.handshake()
        fresh.send(.clientToServer, .control, Conversation.control(2), request: VersionRequest(version: .v1_0, features: [.basic]))
        fresh.ack(.serverToClient, Conversation.control(2))
        fresh.send(.clientToServer, .data, Conversation.normal(1))
        fresh.ack(.serverToClient, Conversation.normal(1))
        #expect(fresh.judged().verdicts.map(\.cause) == ["request-unanswered"])
    }

    /// A client that writes every checksum in host order was also said to open without a version
    /// request: its first frame is one, unreadable (tools/monitor/faults.py --role client).
    @Test("a first frame no receiver may take fails its own rule, not HS-1 as well")
    func unreadableFirstFrame() {
        var talk = Conversation()
        talk.send(.clientToServer, .control, Conversation.control(1), acceptance: .byNoReceiver(WireError(.checksumMismatch(stored: 1, computed: 2), offset: 24)))
        let monitor = talk.judged()
        #expect(Self.failures(monitor) == ["client CRC-1"])
        #expect(monitor.tally.counts[MonitorTally.Key(end: .client, requirement: .hs1)]?.notJudged == 1)
    }
}
