import DecafWire

/// What a client case judges, once the case has ended. Negative checks ("no ACK", "nothing
/// delivered twice") are decided after a sentinel: a later DATA frame whose ACK shows that the
/// client has handled everything before it, so no case waits for something not to happen.
public enum ClientCheck: Hashable, Sendable {
    // MARK: Handshake
    /// The first frame is CONTROL with a VERSION_REQUEST (HS-1).
    case firstFrameIsVersionRequest
    /// The VERSION_REQUEST offers BASIC and the client's major (HS-1).
    case requestOffersBasic
    /// Every frame written before the VERSION_RESPONSE arrived carries version 1.0 (VER-3).
    case headersBeforeAgreement
    /// Every message is reported acknowledged, once.
    case messagesAcknowledged
    /// Exactly one ACK of the server's frame `sequence`, in EX-1's form, echoing `session`.
    case acknowledgedOnce(SequenceNumber, session: SessionID)
    /// Exactly one ACK of the VERSION_RESPONSE, in EX-1's form (HS-2, EX-1).
    case responseAcknowledgedOnce
    /// No compressed body unless COMPRESSION was agreed (HS-2).
    case noCompressedBodies
    /// No READ_RECEIPT unless it was agreed (EX-4).
    case noReadReceipts
    /// A READ_RECEIPT, if any, names the delivered DATA frame `sequence`, once (EX-4, informational).
    case readReceiptFor(SequenceNumber)
    /// After a VERSION_RESPONSE of another major the client gives its messages up instead of
    /// trying again and again.
    case stopsAfterOtherMajor
    /// An unanswered VERSION_REQUEST is sent again, or the connection made again, after the ACK timeout.
    case retriesUnansweredHandshake

    // MARK: Exchange
    /// The testee delivered exactly these payloads, in order.
    case delivered([[UInt8]])
    /// No ACK of the server's frame `sequence`, and the connection open after it.
    case notAcknowledged(SequenceNumber)
    /// The connection stayed open: the DATA frame after the case's frames was acknowledged on it.
    case keptOpen
    /// No more ACKs of a sequence than frames the server sent with it that need one (EX-3).
    case neverAcksAcks
    /// Exactly `count` ACKs of the server's frame `sequence`.
    case acknowledgedTimes(SequenceNumber, Int)
    /// The server's ERROR reported with `code` (EX-5).
    case serverErrorReported(code: UInt16)
    /// The server's READ_RECEIPT reported for the message (EX-4).
    case receiptReported
    /// The DATA bodies, first sends in order, are exactly these TLV bytes.
    case messageBodies([[UInt8]])
    /// Different messages go out under different sequences (SEQ-1, REPLAY-1).
    case sequencesDistinct
    /// The server's DATA frame `sequence`, repeated on the client's next connection with its
    /// sequence and timestamp, is acknowledged there and delivered once in all (REPLAY-1: the
    /// memory spans the session's connections).
    case repeatAcrossConnections(SequenceNumber, payload: [UInt8])
    /// No more than one READ_RECEIPT names the DATA frame `sequence` that the server sent twice
    /// (EX-4: not for repeats).
    case noReceiptForRepeat(SequenceNumber)

    // MARK: Retransmission (EX-7)
    /// An unacknowledged message is sent again, as `aspect` checks.
    case resend(ResendAspect)
    /// A message never acknowledged is given up, as `aspect` checks.
    case givesUp(GiveUpAspect)
    /// Nothing is sent again after its ACK.
    case noResendAfterAck
    /// An ACK arriving after a resend, and a second ACK, change nothing.
    case lateAckHarmless
    /// Only the message whose ACK is missing is sent again.
    case onlyUnacknowledgedResent

    // MARK: Reconnecting
    /// The client comes back after the server closed, reset or refused its connection.
    case reconnects
    /// The waits between attempts grow.
    case backoffGrows
    /// The waits between attempts stop growing at the client's longest wait.
    case backoffCapped
    /// No more than a handful of attempts in a second against a server that closes at once.
    case noHammering
    /// Clients cut off together do not come back together.
    case jitter
    /// A new connection starts with a handshake (HS-1).
    case handshakesAgain
    /// A message cut off by a lost connection is acknowledged on a new one, or reported failed (EX-7).
    case messageSettled
    /// A message cut off by a lost connection goes out again with its sequence and timestamp.
    case resendsOnNewConnection

    // MARK: Heartbeats
    /// An idle client sends heartbeats at its interval.
    case heartbeats
    /// Heartbeats in the HEARTBEAT category, counting up by one.
    case heartbeatSequences
    /// A server that stopped answering is noticed, and the connection closed.
    case deadServerNoticed

    // MARK: Hostile servers
    /// A fatal error: the client closes without delivering or acknowledging the frame, and says so.
    case refuses(ErrorCode, sequence: SequenceNumber?)
    /// Either the frame `sequence` taken (acknowledged, unless `acknowledged` is false: an ACK or a
    /// frame of an undefined type, taken in silence), or the fatal error `code`: the brief allows both.
    case acceptsOrRefuses(SequenceNumber, ErrorCode, acknowledged: Bool = true)
    /// A stream that ends inside a frame: nothing delivered, no crash.
    case truncatedIgnored
    /// A frame the brief accepts, taken as a receiver must: one ACK of `sequence` echoing
    /// `session` (none when not `acknowledged`: ACK and undefined types), `payload` delivered once
    /// (nothing for a frame that is not DATA), and the connection kept.
    case takes(SequenceNumber, session: SessionID, acknowledged: Bool, payload: [UInt8]?)

    // MARK: Sequence and time
    /// Each frame's sequence category fits its type (SEQ-2: a warning).
    case categories
    /// Message counters go up by one (SEQ-1).
    case countersIncrement
    /// Timestamps within a minute of the suite's clock (TS-1).
    case timestampsPlausible

    /// Whether the verdict rests on how long the client waited, by its own timer: a resend, a give
    /// up, a reconnect, a heartbeat. The suite sees the client's frames, not when its timer started,
    /// so a client held up on a loaded machine between starting a timer and writing looks early or
    /// late in ways the suite's own watchdog cannot see.
    public var isTimed: Bool {
        switch self {
        case .retriesUnansweredHandshake, .resend, .givesUp(.afterLastTimeout), .reconnects, .backoffGrows, .backoffCapped, .noHammering, .jitter,
             .heartbeats, .deadServerNoticed: true
        default: false
        }
    }

    public enum ResendAspect: String, Hashable, Sendable {
        case sameSequence, sameTimestamp, sameBody, afterTimeout
    }

    public enum GiveUpAspect: String, Hashable, Sendable {
        case sendCount, reported, afterLastTimeout
    }
}
