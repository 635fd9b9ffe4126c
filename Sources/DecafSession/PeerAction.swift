import DecafWire

/// What a connection must do after its session saw a frame or an error, in order.
public enum PeerAction: Hashable, Sendable {
    /// Write the frame after `delay` (zero: at once).
    case send(OutgoingFrame, after: Duration)
    /// The DATA frame with this header was delivered to the application.
    case deliver(FrameHeader)
    /// Close the connection once the writes before this action are out.
    case close(reason: String)
    /// End the whole process at once, as a server with a crashing bug does: only a planted fault
    /// (`crash-on-deep-empty-text`) asks for it.
    case abort(reason: String)
}
