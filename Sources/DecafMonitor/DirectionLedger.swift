import DecafWire

/// What one direction of a connection sent that the other end must answer or must not, and how
/// far the other end is known to have read: the bookkeeping behind the ACK rules (EX-1, EX-2,
/// EX-3) and the close after a frame no receiver takes (EX-5). Bounded: at most `limit` frames
/// of each kind are kept (about 100 KiB a connection); past it, frames already answered are
/// forgotten first, and frames awaiting an ACK beyond it are counted as not judged.
struct DirectionLedger {
    /// What the rules keep of a frame sent: its type, sequence, timestamp and what tells its body
    /// (a resend keeps them: EX-7), and where it was seen.
    struct SentFrame {
        var messageType: MessageType
        var sequence: SequenceNumber
        var timestamp: UInt32
        var bodyLength: UInt32
        var checksum: UInt32
        var compressType: CompressType
        var evidence: MonitorEvidence

        init(_ frame: MonitoredFrame, _ header: FrameHeader) {
            messageType = header.messageType
            sequence = header.sequence
            timestamp = header.timestamp
            bodyLength = header.bodyLength
            checksum = header.checksum
            compressType = header.compressType
            evidence = frame.evidence
        }
    }

    /// A frame that asks for an ACK, sent once or more (a resend keeps its sequence), and how
    /// many ACKs it got.
    struct Awaiting {
        var frame: SentFrame
        /// The order of its first sending, then of its last.
        var order: Int
        var lastOrder: Int
        var sendings = 1
        var acknowledgements = 0

        /// Whether every sending had its ACK.
        var isAnswered: Bool { acknowledgements >= sendings }
    }

    /// Frames of each kind kept at once, per direction.
    static let limit = 512

    /// Frames sent so far in this direction; a frame's `order` is the count when it came.
    private(set) var sent = 0
    /// Whether the capture holds this direction from its first byte.
    var isWhole = true
    /// The `sent` count when the capture first lost bytes of this direction.
    var gapAfter: Int?
    /// Frames that ask for an ACK, every receiver taking them, by session and sequence.
    private(set) var awaiting = KeyTable<Awaiting>()
    /// How many of them have had an ACK for every sending: what forgetting could drop. With none,
    /// a full ledger does not look (a capture that lost its ACKs filled it with frames still due,
    /// and looking through them on every frame cost the monitor two thirds of its time).
    private var answered = 0
    /// ACKs and frames of undefined types, which are never acknowledged (EX-3).
    private(set) var neverAcknowledged = KeyTable<SentFrame>()
    /// Frames some legal receivers take and others refuse: what the receiver does is its choice.
    private(set) var receiversChoice = KeyTable<Void>()
    /// Frames no receiver takes that have a header, by session and sequence.
    private(set) var refused = KeyTable<MonitoredFrame>()
    /// The first frame no receiver takes, and its order.
    var firstRefused: (frame: MonitoredFrame, error: WireError, order: Int)?
    /// The latest frame the other end acknowledged, by order: it read at least that far.
    var readThrough = 0
    /// Frames not followed because `limit` were.
    var overflow = 0
    /// Whether frames already answered, ACKs or frames some receivers refuse were forgotten to
    /// stay within `limit`: an ACK that matches nothing may then answer one of them.
    private(set) var hasForgotten = false

    /// The highest counter sent in each category (SEQ-1), while no counter has wrapped: an ACK
    /// above it answers nothing sent, whatever was forgotten.
    /// By category, as first sent: a handful, searched in order.
    private var highestCounter: [(category: UInt8, counter: UInt32)] = []
    private var hasWrapped = false

    /// Notes a frame's sequence among those sent.
    mutating func note(_ sequence: SequenceNumber) {
        let category = sequence.category.rawValue
        guard let index = highestCounter.firstIndex(where: { $0.category == category }) else {
            highestCounter.append((category, sequence.counter))
            return
        }
        let highest = highestCounter[index].counter
        if sequence.counter < highest, highest - sequence.counter > 0x800000 { hasWrapped = true }
        highestCounter[index].counter = max(highest, sequence.counter)
    }

    /// Whether a frame with `sequence` was surely never sent: its counter is above every counter
    /// sent in its category, and none wrapped.
    func neverSent(_ sequence: SequenceNumber) -> Bool {
        guard holdsAll, !hasWrapped else { return false }
        guard let highest = highestCounter.first(where: { $0.category == sequence.category.rawValue })?.counter else { return overflow == 0 && !hasForgotten }
        return sequence.counter > highest
    }

    /// The key of a frame's session and sequence.
    static func key(_ header: FrameHeader) -> UInt64 {
        key(session: header.sessionID, sequence: header.sequence)
    }

    /// The key of a session and sequence.
    static func key(session: SessionID, sequence: SequenceNumber) -> UInt64 {
        UInt64(session.rawValue) << 32 | UInt64(sequence.rawValue)
    }

    /// Counts a frame sent; returns its order.
    mutating func count() -> Int {
        sent += 1
        return sent
    }

    /// Whether the capture holds every byte of this direction up to frame `order`.
    func holdsEverything(through order: Int) -> Bool {
        isWhole && (gapAfter.map { $0 >= order } ?? true)
    }

    /// Whether the capture holds every byte of this direction so far: no frame may be missing.
    var holdsAll: Bool { isWhole && gapAfter == nil }

    /// Follows `frame`, which asks for an ACK, unless `limit` frames are followed.
    /// Returns the frame's earlier sending under the same key, as it was, when there was one.
    @discardableResult
    mutating func await(_ frame: SentFrame, order: Int, key: UInt64) -> Awaiting? {
        if let earlier = awaiting[key] {
            var again = earlier
            again.sendings += 1
            again.lastOrder = order
            awaiting[key] = again
            if earlier.isAnswered { answered -= 1 }
            return earlier
        }
        if awaiting.count >= Self.limit, answered > 0 { forgetAcknowledged() }
        guard awaiting.count < Self.limit else {
            overflow += 1
            return nil
        }
        awaiting[key] = Awaiting(frame: frame, order: order, lastOrder: order)
        return nil
    }

    /// Remembers a frame that is never acknowledged (an ACK, an undefined type), within `limit`.
    mutating func rememberNeverAcknowledged(_ frame: SentFrame, key: UInt64) {
        if neverAcknowledged.count >= Self.limit {
            neverAcknowledged.removeAll()
            hasForgotten = true
        }
        neverAcknowledged[key] = frame
    }

    /// Remembers a frame some receivers take and others refuse, within `limit`.
    mutating func rememberReceiversChoice(key: UInt64) {
        if receiversChoice.count >= Self.limit {
            receiversChoice.removeAll()
            hasForgotten = true
        }
        receiversChoice[key] = ()
    }

    /// Remembers a frame no receiver takes, within `limit`.
    mutating func rememberRefused(_ frame: MonitoredFrame, key: UInt64) {
        if refused.count >= Self.limit {
            refused.removeAll()
            hasForgotten = true
        }
        refused[key] = frame
    }

    /// Drops the frames already acknowledged (kept only to tell a second ACK).
    private mutating func forgetAcknowledged() {
        hasForgotten = true
        awaiting.removeAll { $0.isAnswered }
        answered = 0
    }

    /// What an ACK with `key` acknowledges among the frames awaiting one.
    enum Match {
        /// The oldest frame with the key that had no ACK yet.
        case first(Awaiting)
        /// Every frame with the key was acknowledged already: this ACK is one too many.
        case again(Awaiting)
        case none
    }

    /// Takes an ACK with `key`: marks the frame it acknowledges.
    mutating func acknowledge(_ key: UInt64) -> Match {
        guard var entry = awaiting[key] else { return .none }
        let isFirst = !entry.isAnswered
        entry.acknowledgements += 1
        awaiting[key] = entry
        if isFirst && entry.isAnswered { answered += 1 }
        guard isFirst else { return .again(entry) }
        // It read at least as far as the first sending.
        readThrough = max(readThrough, entry.order)
        return .first(entry)
    }

    /// The frames still awaiting an ACK (for a frame acknowledged but sent again, its last
    /// sending), in the order sent.
    var unacknowledged: [Awaiting] {
        awaiting.allValues.filter { !$0.isAnswered }.map { entry in
            var unanswered = entry
            if entry.acknowledgements > 0 { unanswered.order = entry.lastOrder }
            return unanswered
        }.sorted { $0.order < $1.order }
    }
}
