/// Counters of a running peer, across all its connections.
public struct PeerStatistics: Hashable, Sendable {
    public var connectionsAccepted = 0
    public var connectionsRefused = 0
    public var connectionsOpen = 0
    /// Frames received on connections that have closed.
    public var framesReceived = 0
    /// DATA frames delivered on connections that have closed.
    public var framesDelivered = 0
    /// Repeated frames recognised (REPLAY-1) on connections that have closed.
    public var repeats = 0
    /// Fatal protocol errors, each of which ended a connection (or, with a fault, should have).
    public var protocolErrors = 0
    /// Times a connection was no longer read from because its client did not read its replies.
    public var readPauses = 0

    public init() {}
}
