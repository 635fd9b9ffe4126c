import DecafCapture

/// What the monitor of one connection is shown, in the order the capture holds it: the frames of
/// both directions, and what tells it the capture may be missing evidence.
public enum MonitorEvent: Sendable {
    /// A frame, sent in `direction`.
    case frame(TCPDirection, MonitoredFrame)
    /// The capture does not hold the start of `direction`: what came before is unknown.
    case joinedMidStream(TCPDirection)
    /// Bytes of `direction` are missing from the capture (the capture lost them, not the network).
    case gap(TCPDirection)
    /// The sender of `direction` closed it (FIN) or dropped the connection (reset), at `evidence`.
    case ended(TCPDirection, MonitorEvidence)
    /// The connection ended, or the capture did: nothing more comes of it.
    case closed
}
