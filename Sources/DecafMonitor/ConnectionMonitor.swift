import DecafCapture
import DecafDissect
import DecafWire

/// Judges both ends of one connection from what a capture shows of it, as a pure state machine
/// over the two directions' frames (Zeek's analyzers judge live traffic so). A verdict needs
/// proof on the wire: a frame missing its ACK fails only once its receiver acknowledged a frame
/// sent after it, and a receiver "kept reading" only when it acknowledged a later frame. What the
/// capture may have lost (a gap, a stream joined mid-way, a connection the capture ends first)
/// is counted as not judged, never as a failure; frames a receiver may take or refuse (an AES256
/// body, limits it may set) are judged against neither choice.
///
/// Rules: EX-1 (DATA, CONTROL, READ_RECEIPT acknowledged once, by a well-formed ACK), EX-2
/// (HEARTBEAT acknowledged), EX-3 (no ACK for an ACK or an undefined type), EX-4 (no read receipt
/// unless agreed), EX-5 (close after a frame no receiver takes and after one's own ERROR, within
/// `closeDeadline` when the other end waited that long; nothing after one's own ERROR),
/// HS-1 (the client's first frame is its version request), HS-2 (the server's answer to it), SEQ-1
/// and EX-7 (a sequence is one frame's: a resend keeps its body and, recommended, its timestamp),
/// and
/// the requirement of every error a frame no receiver takes breaks, for its sender.
public struct ConnectionMonitor: Sendable {
    /// The connection's index in the capture.
    public let connection: Int
    /// What each end broke, in the order found.
    public private(set) var verdicts: [MonitorVerdict] = []
    /// Failures past the first `verdictLimit`, counted by end and cause: a connection's memory
    /// does not grow with how often its ends repeat a mistake.
    private var unlisted: [String: Int] = [:]
    public static let verdictLimit = 100

    /// Failures found past the first `verdictLimit`, not listed.
    public var verdictsNotListed: Int { unlisted.values.reduce(0, +) }
    /// What each end met, and what the capture could not show.
    public private(set) var tally = MonitorTally()

    private var ledgers = PerDirection(both: DirectionLedger())
    /// Each direction's frames read by the hypothesis that the other end's ACKs carry the
    /// counter plus one.
    private var shifted = PerDirection(both: ShiftedAcknowledgements())
    /// The client's version request, and its order among the client's frames.
    private var request: (frame: MonitoredFrame, order: Int)?
    private var answered = false
    /// The features the handshake agreed, once the server answered.
    private var agreed: FeatureFlags?
    /// A version response of another major: the server must close after it (HS-2).
    private var closingResponse: MonitoredFrame?
    /// Each end's ERROR report, after which it must send nothing (EX-5).
    private var errorSent = PerEnd<MonitoredFrame?>(both: nil)
    /// READ_RECEIPTs seen (a resend keeps sequence and timestamp), by the end that sent them; the
    /// receipts counted for each message sequence; and the distinct messages (timestamps) sent
    /// with each sequence, by the end that sent them: the latest `DirectionLedger.limit` of each.
    private var receipts = PerEnd(both: TimestampTable())
    private var receiptCounts = PerEnd(both: KeyTable<Int>())
    private var messageTimestamps = PerEnd(both: TimestampTable())
    /// Rules already failed once for a cause that would fail every later frame too.
    private var reported: Set<String> = []
    private var isClosed = false
    /// What each end must close the connection after, the latest cause that called for it.
    private var closesDue = PerEnd<CloseDue?>(both: nil)
    /// An ACK that is either a second ACK of `frame` or an ACK of the ACK `ackOfAck`, which
    /// carries the same sequence.
    private struct ExtraAck: Sendable {
        var ack: MonitoredFrame
        var frame: DirectionLedger.SentFrame
        var ackOfAck: DirectionLedger.SentFrame
    }
    /// Each end's extra ACKs of either reading, decided at the end (the first `verdictLimit`).
    private var extraAcks = PerEnd<[ExtraAck]>(both: [])

    /// ACKs of a sequence the other end had not sent when they were seen, by the direction whose
    /// frame they would answer, and key. The frame may come later: the reassembler holds a
    /// direction's segments after a lost one until it gives the hole up (the frames then come
    /// with their packets' earlier times, after the ACKs), and a capture made where interfaces
    /// or queues stamp their own packets can record an ACK before its frame. A frame recorded no
    /// later than `reorderWindow` after its early ACK is answered by it; an early ACK still
    /// unanswered when the connection ends acknowledged a sequence never sent, unless the
    /// capture lost bytes of that direction. At most `DirectionLedger.limit` wait; past it they
    /// are not judged.
    private var early = PerDirection(both: KeyTable<EarlyAck>())
    /// Whether early ACKs of a direction's frames were dropped to stay within the bound: its
    /// frames without an ACK are then not judged.
    private var earlyDropped = PerDirection(both: false)
    private struct EarlyAck: Sendable {
        var ack: MonitorEvidence
        var sequence: SequenceNumber
        var session: SessionID
        /// Whether an ACK of the same sequence went the other way: with no frame to answer, it
        /// acknowledged that ACK (EX-3), if the ledger still holds it.
        var mayAnswerAnAck: Bool
    }
    /// How much earlier than its frame a capture may record an ACK (ns).
    public static let reorderWindow: Int64 = 100_000_000

    /// The longest each end (by the direction it sends in) took to acknowledge a frame, as the capture point saw it (ns): the
    /// round trip to that end and back, which a close it makes in answer to a frame also takes.
    private var longestAnswer = PerDirection<Int64?>(both: nil)
    /// The ends that closed or reset the connection.
    private var ended = PerEnd(both: false)
    /// The end that ended the connection first, and how (a FIN or a reset).
    public private(set) var endedFirst: (end: MonitorEnd, ending: TCPStreamEvent.Ending)?

    /// How long (in nanoseconds, whole seconds) an end may take to close after what calls for a close, before the other end's
    /// close shows it kept the connection open. The brief says "then close"; the conform suites
    /// wait 2 s from their frame, and the monitor a second from the ERROR or the frame, as seen
    /// where the capture was made (a FIN travels behind the ERROR it follows).
    public static let closeDeadline: Int64 = 1_000_000_000

    /// A close an end owes: since which frame, under which requirement, and the cause its
    /// absence names.
    private struct CloseDue: Sendable {
        var since: MonitoredFrame
        var requirement: RequirementID
        var cause: String
        /// What called for the close, in a verdict's words ("its ERROR").
        var reason: String
        /// Whether it is an answer to the other end's frame: its FIN then comes a round trip
        /// after the frame, where the capture point sees it; after one's own frame it follows it.
        var answers = false
    }

    /// The ends judged: both, or one when the other is a proxy that drops frames on purpose
    /// (what it does to the conversation is the network's, not an end's).
    public var judged: Set<MonitorEnd> { Set(MonitorEnd.allCases.filter { judges[$0] }) }
    private let judges: PerEnd<Bool>

    public init(connection: Int, judging judged: Set<MonitorEnd> = Set(MonitorEnd.allCases)) {
        self.connection = connection
        judges = PerEnd(client: judged.contains(.client), server: judged.contains(.server))
    }

    public mutating func handle(_ event: MonitorEvent) {
        guard !isClosed else { return }
        switch event {
        case let .frame(direction, frame): take(frame, from: direction)
        case let .joinedMidStream(direction): ledgers[direction].isWhole = false
        case let .gap(direction): if ledgers[direction].gapAfter == nil { ledgers[direction].gapAfter = ledgers[direction].sent }
        case let .ended(direction, evidence): end(direction, evidence)
        case .closed: close()
        }
    }

    // MARK: - Frames

    private mutating func take(_ frame: MonitoredFrame, from direction: TCPDirection) {
        let sender = MonitorEnd(sending: direction)
        let order = ledgers[direction].count()
        if let error = errorSent[sender], once("after-error-\(sender)") {
            fail("sends-after-error", sender, .ex5, "sent \(Self.describe(frame)) after its ERROR (\(error.evidence)): a fatal error closes the connection", [frame.evidence, error.evidence])
        }
        if let response = closingResponse, sender == .server, once("after-closing-response") {
            fail("sends-after-closing-response", .server, .hs2, "sent \(Self.describe(frame)) after a VERSION_RESPONSE of another major (\(response.evidence)), after which it closes", [frame.evidence, response.evidence])
        }
        if sender == .client && order == 1 { judgeFirstClientFrame(frame, direction: direction) }
        guard let header = frame.header else {
            if case let .byNoReceiver(error) = frame.acceptance { refused(frame, error, order: order, direction: direction) }
            return
        }
        let key = DirectionLedger.key(header)
        ledgers[direction].note(header.sequence)
        switch frame.acceptance {
        case let .byNoReceiver(error):
            refused(frame, error, order: order, direction: direction)
            ledgers[direction].rememberRefused(frame, key: key)
            return
        case .byReceiversChoice:
            ledgers[direction].rememberReceiversChoice(key: key)
            return
        case .byEveryReceiver:
            break
        }
        switch header.messageType {
        case .ack:
            ledgers[direction].rememberNeverAcknowledged(DirectionLedger.SentFrame(frame, header), key: key)
            acknowledgement(frame, header, key: key, from: direction)
        case .data, .control, .readReceipt, .heartbeat:
            if let first = ledgers[direction].await(DirectionLedger.SentFrame(frame, header), order: order, key: key) {
                judgeSendingAgain(first, as: frame, header, from: sender, direction: direction)
            }
            if !early[direction].isEmpty { answerEarly(frame, key: key, direction: direction) }
            shifted[direction].sent(DirectionLedger.SentFrame(frame, header), order: order, key: key)
        default: ledgers[direction].rememberNeverAcknowledged(DirectionLedger.SentFrame(frame, header), key: key)
        }
        if header.messageType == .control { control(frame, from: sender, order: order) }
        if header.messageType == .data { noteMessage(header, from: sender) }
        if header.messageType == .readReceipt, let receipt = frame.readReceipt { judgeReceipt(receipt, frame, header, from: sender) }
        if header.messageType == .readReceipt, let agreed, !agreed.contains(.readReceipt) {
            fail("read-receipt-unagreed", sender, .ex4, "sent a READ_RECEIPT (\(frame.evidence)), though the handshake did not agree to read receipts", [frame.evidence])
        }
    }

    /// Notes a DATA frame's timestamp among those sent with its sequence: a new timestamp is a new
    /// message (REPLAY-1 names a message by sequence and timestamp), the same one a resend.
    private mutating func noteMessage(_ header: FrameHeader, from sender: MonitorEnd) {
        messageTimestamps[sender].insert(header.timestamp, for: DirectionLedger.key(header)) { receiptCounts[sender.peer].removeAll() }
    }

    /// REPLAY-1: more READ_RECEIPTs for a sequence (not resends of one) than messages sent with it
    /// on this connection show one delivered twice.
    private mutating func judgeReceipt(_ receipt: ReadReceipt, _ frame: MonitoredFrame, _ header: FrameHeader, from sender: MonitorEnd) {
        guard receipts[sender].insert(header.timestamp, for: DirectionLedger.key(header)) else { return }
        let message = DirectionLedger.key(session: header.sessionID, sequence: receipt.sequence)
        guard let messages = messageTimestamps[sender.peer].count(for: message) else {
            notJudged(sender, .replay1, because: "a receipt for a message the capture does not show on its connection")
            return
        }
        if receiptCounts[sender].count >= DirectionLedger.limit { receiptCounts[sender].removeAll() }
        let count = (receiptCounts[sender][message] ?? 0) + 1
        receiptCounts[sender][message] = count
        if count <= messages {
            passed(sender, .replay1)
        } else {
            fail("delivered-twice", sender, .replay1, "reported message \(receipt.sequence) read \(count) times (\(frame.evidence)), though it was sent \(messages == 1 ? "once" : "as \(messages) messages") (a resend keeps its timestamp): a repeat is acknowledged again, never delivered twice", [frame.evidence])
        }
    }

    /// A frame under a sequence this end already sent on the connection. With another body, two
    /// frames share one sequence (SEQ-1: a counter adds 1 per frame), or a resend changed its body
    /// (EX-7, interpretation 17: a receiver drops it as a repeat): either way the sequence was
    /// used twice. With the body and a new timestamp, before any ACK: a resend that should keep
    /// its timestamp (EX-7, recommended), or a receiver whose ACK was lost delivers it twice. The
    /// same frame after its ACK may be a resend that crossed the ACK: nothing is judged of it.
    private mutating func judgeSendingAgain(_ first: DirectionLedger.Awaiting, as frame: MonitoredFrame, _ header: FrameHeader, from sender: MonitorEnd,
                                            direction: TCPDirection) {
        let earlier = first.frame
        // Compressed otherwise, the same message has other bytes; an ACK the capture lost leaves
        // a resend unexplained.
        guard header.compressType == earlier.compressType, ledgers[direction.reversed].holdsAll else {
            notJudged(sender, .ex7, because: "a frame sent again compressed otherwise, or with its ACK direction not whole in the capture")
            return
        }
        let evidence = [frame.evidence, earlier.evidence]
        let unacknowledged = first.acknowledgements == 0
        if header.bodyLength != earlier.bodyLength || header.checksum != earlier.checksum {
            let reading = unacknowledged ? ", or a resend of it with its body changed (EX-7: a resend is the same frame)" : ""
            fail("sequence-reused", sender, .seq1, "sent \(Self.describe(frame)) (\(frame.evidence)) with another body than the frame it sent under that sequence (\(earlier.evidence)): two frames under one sequence (a counter adds 1 per frame)\(reading); a receiver drops the second as a repeat",
                 evidence)
        } else if header.timestamp != earlier.timestamp, unacknowledged {
            fail("resent-with-new-timestamp", sender, .ex7, "sent \(Self.describe(frame)) again (\(frame.evidence)) with timestamp \(header.timestamp), its first sending (\(earlier.evidence)) \(earlier.timestamp): a resend keeps its timestamp, or a receiver whose ACK was lost delivers it twice",
                 evidence, level: .recommended)
        } else if unacknowledged {
            passed(sender, .ex7)
        }
    }

    /// A frame no receiver takes: its sender broke the rule the error names (for a checksum, the
    /// rule of what it covers and how it is written, CRC-1; the error's own, CRC-2, is the
    /// receiver's duty).
    private mutating func refused(_ frame: MonitoredFrame, _ error: WireError, order: Int, direction: TCPDirection) {
        if ledgers[direction].firstRefused == nil { ledgers[direction].firstRefused = (frame, error, order) }
        let receiver = MonitorEnd(sending: direction.reversed)
        if closesDue[receiver] == nil, errorSent[receiver] == nil {
            closesDue[receiver] = CloseDue(since: frame, requirement: .ex5, cause: "keeps-open-after-unreadable-frame",
                                           reason: "a frame no receiver may take (\(error.code.name))", answers: true)
        }
        fail("sends-unreadable-frame", MonitorEnd(sending: direction), error.code == .checksumMismatch ? .crc1 : error.requirement,
             "sent a frame no receiver may take (\(frame.evidence)): \(error.code.name) at offset \(error.offset)", [frame.evidence])
    }

    /// HS-1: a client's first frame should be a CONTROL frame with its VERSION_REQUEST, BASIC set.
    private mutating func judgeFirstClientFrame(_ frame: MonitoredFrame, direction: TCPDirection) {
        guard ledgers[direction].holdsEverything(through: 1) else {
            notJudged(.client, .hs1, because: "the capture does not hold the start of the client's stream")
            return
        }
        // A first frame no receiver may take fails its own rule; what it carries cannot be read.
        if case .byNoReceiver = frame.acceptance {
            notJudged(.client, .hs1, because: "the client's first frame is one no receiver may take")
            return
        }
        if frame.messageType == .control, let offer = frame.versionRequest, offer.features.contains(.basic) {
            passed(.client, .hs1)
        } else {
            let what = frame.versionRequest != nil ? "a version request without BASIC" : Self.describe(frame)
            fail("first-frame-not-request", .client, .hs1, "its first frame is \(what) (\(frame.evidence)), not a CONTROL frame with VERSION_REQUEST", [frame.evidence])
        }
    }

    /// The handshake's frames, and an ERROR report.
    private mutating func control(_ frame: MonitoredFrame, from sender: MonitorEnd, order: Int) {
        // A request sent again with its sequence and timestamp is a repeat (its answer was lost on
        // the way): the server acknowledges it and need not answer again (REPLAY-1).
        if sender == .client, frame.versionRequest != nil, !Self.repeats(frame, request?.frame) {
            request = (frame, order)
            answered = false
        }
        if sender == .server, let response = frame.versionResponse { answer(response, in: frame) }
        if let report = frame.errorReport, ErrorCode(rawValue: report.code) != nil, errorSent[sender] == nil {
            errorSent[sender] = frame
            closesDue[sender] = CloseDue(since: frame, requirement: .ex5, cause: "keeps-open-after-error", reason: "its ERROR")
        }
    }

    /// HS-2: the answer to the client's request, over every version and features a server may have.
    private mutating func answer(_ response: VersionResponse, in frame: MonitoredFrame) {
        guard let request = request?.frame, let offer = request.versionRequest else {
            notJudged(.server, .hs2, because: "the capture does not hold the version request the server answers")
            return
        }
        answered = true
        let evidence = [frame.evidence, request.evidence]
        if response.version.major != offer.version.major {
            if response.features.isEmpty {
                passed(.server, .hs2)
                closingResponse = frame
                closesDue[.server] = CloseDue(since: frame, requirement: .hs2, cause: "keeps-open-after-closing-response",
                                              reason: "its VERSION_RESPONSE of another major")
            } else {
                fail("features-with-other-major", .server, .hs2, "answered a request for \(offer.version) with \(response.version) and features \(response.features.names.joined(separator: ",")): another major agrees no features", evidence)
            }
            return
        }
        let possible = offer.features.intersection(.known)
        if response.version.minor > offer.version.minor {
            fail("higher-minor", .server, .hs2, "answered a request for \(offer.version) with \(response.version): the lower of the two minors is agreed", evidence)
        } else if !possible.isSuperset(of: response.features) {
            let extra = response.features.subtracting(possible)
            fail("features-not-offered", .server, .hs2, "agreed features the client did not offer (\(extra.names.joined(separator: ","))): only features both sides set are agreed", evidence)
        } else {
            passed(.server, .hs2)
            agreed = response.features
        }
    }

    // MARK: - Acknowledgements

    /// An ACK sent in `direction`, for a frame of the other direction.
    private mutating func acknowledgement(_ frame: MonitoredFrame, _ header: FrameHeader, key: UInt64, from direction: TCPDirection) {
        let acker = MonitorEnd(sending: direction)
        let acked = direction.reversed
        if header.bodyLength != 0 || header.checksum != 0 || header.encryptType != .none || header.compressType != .none, once("ack-form-\(acker)") {
            fail("ack-not-bare", acker, .ex1, "its ACK (\(frame.evidence)) is not bare: an ACK has an empty body, checksum 0, encrypt_type 0 and compress_type 0", [frame.evidence])
        }
        shifted[acked].acknowledged(frame, header)
        switch ledgers[acked].acknowledge(key) {
        case let .first(sent):
            passed(acker, sent.frame.messageType == .heartbeat ? .ex2 : .ex1)
            longestAnswer[direction] = max(longestAnswer[direction] ?? 0, frame.time.nanoseconds(since: sent.frame.evidence.time))
            readPast(sent, by: acker, ack: frame.evidence, direction: acked)
        case let .again(sent):
            // An ACK and a frame awaiting one may share a sequence (an ACK carries the other
            // end's): the extra ACK is a second ACK of the frame or an ACK of the ACK, which the
            // end's other ACKs decide when the connection ends.
            if let unacknowledged = ledgers[acked].neverAcknowledged[key] {
                if extraAcks[acker].count < Self.verdictLimit {
                    extraAcks[acker].append(ExtraAck(ack: frame, frame: sent.frame, ackOfAck: unacknowledged))
                }
            } else if ledgers[acked].holdsAll && !ledgers[acked].hasForgotten {
                fail("ack-again", acker, .ex1, "acknowledged \(Self.describe(sent.frame)) (\(sent.frame.evidence)) once more than it was sent (\(frame.evidence)): each frame gets exactly one ACK", [frame.evidence, sent.frame.evidence])
            } else {
                notJudged(acker, .ex1, because: "a second ACK may answer a resend the capture lost")
            }
        case .none:
            unmatched(frame, header, key: key, by: acker, direction: acked)
        }
    }

    /// An ACK that matches no frame awaiting one.
    private mutating func unmatched(_ ack: MonitoredFrame, _ header: FrameHeader, key: UInt64, by acker: MonitorEnd, direction acked: TCPDirection) {
        let ledger = ledgers[acked]
        if let frame = ledger.refused[key], case let .byNoReceiver(error) = frame.acceptance {
            // Reading on past the frame is the same mistake: said once, here.
            _ = once("read-past-\(acker)")
            fail("takes-unreadable-frame", acker, error.requirement, "acknowledged a frame no receiver may take (\(frame.evidence), \(error.code.name)) (\(ack.evidence)): it must refuse it", [ack.evidence, frame.evidence])
        } else if ledger.receiversChoice.contains(key) {
            return
        } else if ledger.neverAcknowledged[key] != nil || ledger.holdsAll && ledger.overflow == 0 && !ledger.hasForgotten || ledger.neverSent(header.sequence) {
            if early[acked].count >= DirectionLedger.limit {
                notJudged(acker, .ex1, because: "an ACK may answer a frame the capture has not shown yet", count: early[acked].count)
                early[acked].removeAll()
                earlyDropped[acked] = true
            }
            if early[acked][key] == nil {
                early[acked][key] = EarlyAck(ack: ack.evidence, sequence: header.sequence, session: header.sessionID, mayAnswerAnAck: ledger.neverAcknowledged[key] != nil)
            }
        } else {
            notJudged(acker, .ex1, because: "an ACK may answer a frame the capture does not hold")
        }
    }

    /// A frame the other end may have acknowledged before the capture recorded it: the early ACK
    /// with its key answers it, within `reorderWindow`.
    private mutating func answerEarly(_ frame: MonitoredFrame, key: UInt64, direction: TCPDirection) {
        guard let ack = early[direction].removeValue(forKey: key) else { return }
        let acker = MonitorEnd(sending: direction.reversed)
        guard frame.time.nanoseconds(since: ack.ack.time) <= Self.reorderWindow, case let .first(sent) = ledgers[direction].acknowledge(key) else {
            return neverSent(ack, by: acker, direction: direction)
        }
        passed(acker, sent.frame.messageType == .heartbeat ? .ex2 : .ex1)
        readPast(sent, by: acker, ack: ack.ack, direction: direction)
    }

    /// The early ACKs of frames of `direction` no frame answered, in the order seen, when the
    /// connection ends.
    private mutating func settleEarly(_ direction: TCPDirection) {
        let acker = MonitorEnd(sending: direction.reversed)
        for ack in early[direction].allValues.sorted(by: { ($0.ack.frame ?? 0) < ($1.ack.frame ?? 0) }) { neverSent(ack, by: acker, direction: direction) }
        early[direction].removeAll()
    }

    /// An early ACK no frame answered: an ACK of an ACK with its sequence (EX-3), or of a sequence
    /// never sent, unless the capture has lost bytes of `direction` since (the next segment after
    /// a lost one shows the gap, often after the ACK of what it lost).
    private mutating func neverSent(_ early: EarlyAck, by acker: MonitorEnd, direction: TCPDirection) {
        let ledger = ledgers[direction]
        if early.mayAnswerAnAck {
            guard ledger.holdsAll, let ackOfAck = ledger.neverAcknowledged[DirectionLedger.key(session: early.session, sequence: early.sequence)] else {
                return notJudged(acker, .ex3, because: "an ACK may answer a frame the capture does not hold")
            }
            return acknowledgedNever(ackOfAck, ack: early.ack, by: acker)
        }
        guard ledger.holdsAll && ledger.overflow == 0 && !ledger.hasForgotten || ledger.neverSent(early.sequence) else {
            return notJudged(acker, .ex1, because: "an ACK may answer a frame the capture does not hold")
        }
        fail("ack-never-sent", acker, .ex1, "acknowledged sequence \(early.sequence) of session \(Hex.format(early.session.rawValue, width: 4)) (\(early.ack)), which the \(acker.peer) never sent on this connection", [early.ack])
    }

    /// EX-3: an ACK of a frame that is never acknowledged (an ACK, an undefined type).
    private mutating func acknowledgedNever(_ frame: DirectionLedger.SentFrame, ack: MonitorEvidence, by acker: MonitorEnd) {
        let what = frame.messageType == .ack ? "an ACK" : "a frame of an undefined type"
        fail("ack-of-unacknowledged-type", acker, .ex3, "acknowledged \(what) (\(Self.describe(frame)), \(frame.evidence)) with \(ack): ACKs and undefined types are never acknowledged",
             [ack, frame.evidence])
    }

    /// The ACK of `sent` shows its receiver read that far, past a frame no receiver takes: one
    /// that said an ERROR saw the error and kept the connection open (EX-5); one that said
    /// nothing took the frame, breaking the rule the frame breaks, as if it had acknowledged it.
    private mutating func readPast(_ sent: DirectionLedger.Awaiting, by reader: MonitorEnd, ack: MonitorEvidence, direction: TCPDirection) {
        guard let refused = ledgers[direction].firstRefused, sent.order > refused.order, once("read-past-\(reader)") else { return }
        let evidence = [ack, refused.frame.evidence]
        if let error = errorSent[reader] {
            fail("keeps-open-after-error", reader, .ex5, "acknowledged \(Self.describe(sent.frame)) (\(sent.frame.evidence)) after its ERROR (\(error.evidence)) for a frame no receiver may take (\(refused.frame.evidence), \(refused.error.code.name)): it must close the connection",
                 evidence)
        } else {
            fail("takes-unreadable-frame", reader, refused.error.requirement, "acknowledged \(Self.describe(sent.frame)) (\(sent.frame.evidence)), sent after a frame no receiver may take (\(refused.frame.evidence), \(refused.error.code.name)), without an ERROR: it took that frame, which it must refuse, and close (\(ack))",
                 evidence)
        }
    }

    // MARK: - The end

    /// The sender of `direction` closed or reset the connection: the close it owed, if any; and
    /// for the other end, a close it owed for longer than `closeDeadline` and still had not made.
    private mutating func end(_ direction: TCPDirection, _ evidence: MonitorEvidence) {
        let closer = MonitorEnd(sending: direction)
        guard !ended[closer] else { return }
        ended[closer] = true
        if endedFirst == nil, let ending = evidence.ending { endedFirst = (closer, ending) }
        if let due = closesDue[closer] {
            closesDue[closer] = nil
            passed(closer, due.requirement)
        }
        let other = closer.peer
        guard !ended[other], let due = closesDue[other] else { return }
        closesDue[other] = nil
        let waited = evidence.time.nanoseconds(since: due.since.time)
        var deadline = RoundTripSummary.seconds(Self.closeDeadline)
        var allowed = Self.closeDeadline
        // A close in answer to the other end's frame is seen a round trip later: the longest the
        // end took to acknowledge a frame, and nothing is judged without one.
        if due.answers {
            guard let roundTrip = longestAnswer[other == .client ? .clientToServer : .serverToClient] else {
                notJudged(other, due.requirement, because: "the other end closed first, and no round trip to this end was measured")
                return
            }
            allowed += roundTrip
            deadline += " and its longest round trip, \(RoundTripSummary.milliseconds(roundTrip))"
        }
        guard waited >= allowed else {
            notJudged(other, due.requirement, because: "the other end closed the connection soon after what called for a close")
            return
        }
        // Reading on past it, or sending after its ERROR, already said that it kept the connection open.
        let said: Set<String> = ["keeps-open-after-error", "takes-unreadable-frame", "sends-after-error", "sends-after-closing-response"]
        guard !verdicts.contains(where: { $0.end == other && said.contains($0.cause) }) else { return }
        let how = evidence.ending == .reset ? "reset" : "closed"
        fail(due.cause, other, due.requirement,
             "had not closed the connection \(RoundTripSummary.seconds(waited)) after \(due.reason) (\(due.since.evidence)), when the \(closer) \(how) it (\(evidence)): it must close (the monitor allows \(deadline))",
             [due.since.evidence, evidence])
    }

    private mutating func close() {
        isClosed = true
        for direction in TCPDirection.allCases { settleEarly(direction) }
        for end in MonitorEnd.allCases {
            if let due = closesDue[end] { notJudged(end, due.requirement, because: "the connection or the capture ended before either end closed after what called for a close") }
        }
        for direction in TCPDirection.allCases {
            let receiver = MonitorEnd(sending: direction.reversed)
            let ledger = ledgers[direction]
            let receiverWhole = ledgers[direction.reversed].holdsAll
            for sent in ledger.unacknowledged {
                let requirement: RequirementID = sent.frame.messageType == .heartbeat ? .ex2 : .ex1
                if ledger.readThrough > sent.order && receiverWhole && !earlyDropped[direction] {
                    fail("ack-missing", receiver, requirement, "never acknowledged \(Self.describe(sent.frame)) (\(sent.frame.evidence)), though it acknowledged frames sent after it", [sent.frame.evidence])
                } else {
                    notJudged(receiver, requirement, because: "a frame had no ACK when the connection or the capture ended, and nothing later was acknowledged")
                }
            }
            notJudged(receiver, .ex1, because: "more than \(DirectionLedger.limit) frames awaited an ACK at once", count: ledger.overflow)
        }
        for end in MonitorEnd.allCases { decideExtraAcks(of: end) }
        for direction in TCPDirection.allCases { explainByShift(acknowledging: direction) }
        if let request, !answered {
            let client = ledgers[.clientToServer]
            let server = ledgers[.serverToClient]
            // An answer in a frame no receiver may take is that frame's failure, not this one.
            if client.readThrough > request.order && server.holdsAll && server.firstRefused == nil {
                fail("request-unanswered", .server, .hs2, "never answered the VERSION_REQUEST (\(request.frame.evidence)), though it acknowledged frames sent after it", [request.frame.evidence])
            } else {
                notJudged(.server, .hs2, because: "the connection or the capture ended before the server answered")
            }
        }
    }

    /// The extra ACKs `end` sent that could answer a frame a second time or an ACK: read as the
    /// mistake its other ACKs show (acknowledging an ACK that shares its sequence with nothing,
    /// EX-3, or acknowledging a frame twice that shares it with no ACK, EX-1), and without either,
    /// as the answer to the later of the two.
    private mutating func decideExtraAcks(of end: MonitorEnd) {
        let extras = extraAcks[end]
        extraAcks[end] = []
        func shows(_ cause: String) -> Bool { verdicts.contains { $0.end == end && $0.cause == cause } || unlisted["\(end) \(cause)"] != nil }
        let acksAcks = shows("ack-of-unacknowledged-type"), acksTwice = shows("ack-again")
        for extra in extras {
            let laterIsTheAck = (extra.ackOfAck.evidence.frame ?? 0) > (extra.frame.evidence.frame ?? 0)
            if acksAcks || (!acksTwice && laterIsTheAck) {
                acknowledgedNever(extra.ackOfAck, ack: extra.ack.evidence, by: end)
            } else {
                fail("ack-again", end, .ex1, "acknowledged \(Self.describe(extra.frame)) (\(extra.frame.evidence)) once more than it was sent (\(extra.ack.evidence)): each frame gets exactly one ACK (or it acknowledged the ACK \(extra.ackOfAck.evidence) of that sequence, which no frame gets)",
                     [extra.ack.evidence, extra.frame.evidence])
            }
        }
    }

    /// The ACK failures of the end that acknowledges `direction`, replaced by one defect when the
    /// hypothesis that its ACKs carry the counter plus one explains them all.
    private mutating func explainByShift(acknowledging direction: TCPDirection) {
        let acker = MonitorEnd(sending: direction.reversed)
        let symptoms: Set<String> = ["ack-never-sent", "ack-again", "ack-missing", "ack-of-unacknowledged-type"]
        let unlistedKeys = symptoms.map { "\(acker) \($0)" }
        let explained = verdicts.filter { $0.end == acker && symptoms.contains($0.cause) }.count + unlistedKeys.reduce(0) { $0 + (unlisted[$1] ?? 0) }
        guard explained > 0, shifted[direction].explainsEverything, let first = shifted[direction].first else { return }
        verdicts.removeAll { $0.end == acker && symptoms.contains($0.cause) }
        for key in unlistedKeys { unlisted[key] = nil }
        fail("ack-counter-plus-one", acker, .ex1,
             "acknowledges each frame with the sequence counter plus one: its ACK \(first.ack.header.map { "\($0.sequence)" } ?? "") (\(first.ack.evidence)) answers \(Self.describe(first.frame)) (\(first.frame.evidence)); all \(shifted[direction].matched) of its ACKs read so, and the \(explained) ACK failures they caused are this one",
             [first.ack.evidence, first.frame.evidence])
    }

    // MARK: - Helpers

    /// True the first time `cause` is asked: a cause that would fail every later frame is said once.
    private mutating func once(_ cause: String) -> Bool {
        reported.insert(cause).inserted
    }

    /// Records that `end` broke `requirement`; `cause` names what it did, the same for every
    /// frame the same mistake shows in, so a report says each cause once.
    private mutating func fail(_ cause: String, _ end: MonitorEnd, _ requirement: RequirementID, _ message: String, _ evidence: [MonitorEvidence],
                               level: MonitorVerdict.Level? = nil) {
        guard judges[end] else { return }
        guard verdicts.count < Self.verdictLimit else {
            unlisted["\(end) \(cause)", default: 0] += 1
            return
        }
        verdicts.append(MonitorVerdict(connection: connection, end: end, requirement: requirement, level: level ?? MonitorCatalog.level(of: requirement),
                                       cause: cause, message: message, evidence: evidence))
    }

    private mutating func passed(_ end: MonitorEnd, _ requirement: RequirementID) {
        if judges[end] { tally.pass(end, requirement) }
    }

    private mutating func notJudged(_ end: MonitorEnd, _ requirement: RequirementID, because reason: String, count: Int = 1) {
        if judges[end] { tally.notJudged(end, requirement, because: reason, count: count) }
    }

    /// Whether `frame` is `earlier` sent again: the same sequence and timestamp.
    static func repeats(_ frame: MonitoredFrame, _ earlier: MonitoredFrame?) -> Bool {
        guard let header = frame.header, let first = earlier?.header else { return false }
        return header.sequence == first.sequence && header.timestamp == first.timestamp && header.sessionID == first.sessionID
    }

    /// A frame for a person: its type and sequence.
    static func describe(_ frame: MonitoredFrame) -> String {
        guard let header = frame.header else { return "a frame without a header" }
        return "\(header.messageType) \(header.sequence)"
    }

    /// A frame kept for the rules, the same way.
    static func describe(_ frame: DirectionLedger.SentFrame) -> String {
        "\(frame.messageType) \(frame.sequence)"
    }
}
