import DecafWire

/// What a client session counted, for reports such as `decaf send`'s.
public struct ClientStatistics: Hashable, Sendable {
    /// Distinct messages sent at least once.
    public var sent = 0
    /// Distinct messages the server acknowledged.
    public var acknowledged = 0
    /// Messages given up: out of retries, the server incompatible, or the client stopped.
    public var failed = 0
    /// Why they were given up: each reason and how many messages it cost.
    public var failureReasons: [String: Int] = [:]
    /// Frames sent again: after an ACK timeout (EX-7) or on a new connection.
    public var retransmissions = 0
    /// Extra copies of DATA frames sent at once under measured loss.
    public var copies = 0
    /// ACKs for a frame already acknowledged, or for no frame the client sent.
    public var duplicateAcks = 0
    /// READ_RECEIPTs received.
    public var readReceipts = 0
    /// DATA frames from the server delivered to the application, and repeats recognised (REPLAY-1).
    public var delivered = 0
    /// Repeats from the server recognised and not delivered again (REPLAY-1).
    public var repeats = 0
    /// Connections made after the first.
    public var reconnects = 0
    /// HEARTBEATs sent on idle connections.
    public var heartbeatsSent = 0
    /// HEARTBEATs the server acknowledged.
    public var heartbeatsAcknowledged = 0
    /// The agreement of the last handshake.
    public var negotiated: VersionResponse?
    /// ERROR TLVs the server sent.
    public var serverErrors: [ErrorReport] = []
    /// What the server sent that broke the protocol.
    public var protocolErrors: [WireError] = []

    /// Nothing counted yet.
    public init() {}
}
