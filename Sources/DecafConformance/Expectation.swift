import DecafWire

/// What the target must do after the steps before, with every outcome the spec accepts.
///
/// Negative checks ("no ACK", "the connection stays open") are decided by a sentinel: a later DATA
/// frame whose ACK shows that the target has answered everything before it, so no case waits for
/// something not to happen.
public enum Expectation: Hashable, Sendable {
    /// Exactly one ACK of `sequence`, echoing `session`, in the form EX-1 gives (empty body,
    /// checksum 0, no encryption or compression flags), and the connection open.
    case ack(SequenceNumber, session: SessionID)
    /// An ACK of `sequence` no later than `deadline` after the frame was sent, so that a client's
    /// retransmission timer (EX-7) does not fire.
    case promptAck(SequenceNumber, deadline: Duration)
    /// No ACK of `sequence`, and the connection stays open (FRAME-4, EX-3).
    case noAck(SequenceNumber)
    /// A fatal error: an ERROR TLV carrying `code`, then the close (EX-5). A close without the
    /// ERROR passes non-strictly (the ERROR is a SHOULD). Another code fails when `exactCode` is
    /// set (the case is about which error comes first) and passes non-strictly otherwise.
    case fatal(ErrorCode, exactCode: Bool)
    /// Either an ACK of `sequence` or the fatal error `code`, both allowed by the spec (a MAY).
    case ackOrFatal(SequenceNumber, session: SessionID, ErrorCode)
    /// Either the frame `sequence` taken as a frame that gets no ACK (an ACK, an undefined type)
    /// and the connection kept, or the fatal error `code`: both allowed by the spec. Taking it
    /// is silent, so a sentinel tells it from a target that stopped answering.
    case noAckOrFatal(SequenceNumber, ErrorCode)
    /// The target closes the connection; an ERROR TLV before it should carry one of `codes` (a
    /// frame cut short can be refused for its header, or for being cut short once the stream ends).
    case close([ErrorCode])
    /// An ACK of the CONTROL frame with `sequence` and a VERSION_RESPONSE to `request`, in either
    /// order, as HS-2 gives them for the target's own version and features. With another major,
    /// the target closes after the response.
    case versionResponse(to: VersionRequest, sequence: SequenceNumber, session: SessionID)
    /// Exactly `count` READ_RECEIPT frames for the DATA frame `sequence` (EX-4). The case sends
    /// each receipt's ACK, as a client must.
    case readReceipts(for: SequenceNumber, count: Int)
    /// The target closes the connection after its idle timeout, with nothing sent (EX-6).
    case idleClose
}
