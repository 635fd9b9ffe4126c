import DecafSession
import DecafWire

/// What `decaf send` achieved, over all its connections.
public struct SendReport: Hashable, Sendable {
    public var connections = 0
    /// Distinct messages sent at least once.
    public var sent = 0
    public var acknowledged = 0
    /// Messages never acknowledged: out of retries, the deadline passed, or the server incompatible.
    public var lost = 0
    /// Why they were lost: each reason and how many messages it cost.
    public var lostBecause: [String: Int] = [:]
    public var retransmissions = 0
    /// Extra copies of DATA frames sent at once under measured loss.
    public var copies = 0
    /// ACKs for a message already acknowledged, or for no message sent.
    public var duplicateAcks = 0
    public var readReceipts = 0
    public var reconnects = 0
    public var heartbeatsAcknowledged = 0
    /// The versions and features the handshakes agreed on, last one per connection.
    public var negotiated: [VersionResponse] = []
    /// ERROR TLVs the server sent.
    public var serverErrors: [ErrorReport] = []
    /// Protocol errors in what the server sent.
    public var protocolErrors: [WireError] = []
    /// Time from the first connection attempt to the last message settled.
    public var elapsed: Duration = .zero
    /// The run was stopped (Ctrl-C) before every message was settled: what was not is given up.
    public var interrupted = false
    /// From a message's first sending to its ACK.
    public var latency: LatencySummary?

    public init() {}

    /// Adds what one connection's session counted.
    mutating func add(_ statistics: ClientStatistics) {
        connections += 1
        sent += statistics.sent
        acknowledged += statistics.acknowledged
        lost += statistics.failed
        lostBecause.merge(statistics.failureReasons, uniquingKeysWith: +)
        retransmissions += statistics.retransmissions
        copies += statistics.copies
        duplicateAcks += statistics.duplicateAcks
        readReceipts += statistics.readReceipts
        reconnects += statistics.reconnects
        heartbeatsAcknowledged += statistics.heartbeatsAcknowledged
        negotiated += statistics.negotiated.map { [$0] } ?? []
        serverErrors += statistics.serverErrors
        protocolErrors += statistics.protocolErrors
    }

    /// Acknowledged messages per second.
    public var messagesPerSecond: Double {
        let seconds = elapsed / .seconds(1)
        return seconds > 0 ? Double(acknowledged) / seconds : 0
    }

    /// True when every message was acknowledged.
    public var succeeded: Bool { lost == 0 && acknowledged == sent && sent > 0 }

    /// Why a connection attempt still under way when the sender gave up had not completed (the
    /// server did not accept it), for the first connection that ended so.
    public var givenUpWhileConnecting: String?

    /// True when no connection ever completed a handshake: the server was not reached.
    public var neverConnected: Bool { negotiated.isEmpty }
}
