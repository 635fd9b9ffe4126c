/// What a server case's driver must do next, as its judge asks, in order.
public enum ServerCaseAction: Hashable, Sendable {
    /// Write the case's bytes, after a pause, then tell the judge how the write went
    /// (`wrote`, `writeStalled` or `writeFailed`).
    case write([UInt8], label: String, after: Duration)
    /// Write an ACK of the target's frame, as a client must (EX-1); how it went does not matter.
    case acknowledge([UInt8], label: String)
    /// End the case's side of the stream, then tell the judge (`streamEnded`).
    case endStream
    /// Read what the target sends, handing each event to the judge, until this moment of the
    /// case's time; then call `deadlinePassed`.
    case wait(until: Duration)
    /// The case is judged.
    case finish(Verdict)
}
