import DecafWire

/// Something that happened on a client connection, in order.
public enum WireEvent: Hashable, Sendable {
    /// A frame from the server.
    case frame(Frame)
    /// The server sent bytes that break the protocol; the client reads nothing more after it.
    case error(WireError)
    /// The connection closed.
    case closed
}
