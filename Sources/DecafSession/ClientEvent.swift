import DecafWire

/// What a client session tells its application.
public enum ClientEvent: Hashable, Sendable {
    /// The server acknowledged the VERSION_REQUEST (HS-2).
    case requestAcknowledged
    /// The handshake agreed on this version and these features (HS-2), `roundTrip` after the
    /// request was first sent.
    case handshake(VersionResponse, roundTrip: Duration)
    /// The server speaks another major (HS-2): the client stops.
    case incompatible(VersionResponse)
    /// Message `id` went out for the first time as `sequence` with `timestamp`; its resends keep
    /// both (EX-7).
    case sent(id: Int, sequence: SequenceNumber, timestamp: UInt32)
    /// Message `id` was acknowledged, `latency` after it was first sent, after `retransmissions`.
    case acknowledged(id: Int, latency: Duration, retransmissions: Int)
    /// Message `id` was given up: out of retries (EX-7), or the client stopped.
    case failed(id: Int, reason: String)
    /// The server read message `id` (EX-4).
    case readReceipt(id: Int)
    /// A DATA frame from the server, delivered once (REPLAY-1).
    case delivered(sequence: SequenceNumber, payload: [UInt8])
    /// The server sent an ERROR (EX-5).
    case serverError(ErrorReport)
    /// The server's bytes broke the protocol; the connection is closed.
    case protocolError(WireError)
    /// The connection closed or broke.
    case disconnected
    /// The client waits this long before its next connection attempt.
    case reconnecting(after: Duration)
    /// Every message is settled and the input ended: the client is done.
    case finished
}
