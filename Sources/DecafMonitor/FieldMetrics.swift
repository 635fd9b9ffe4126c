import DecafCapture
import DecafDissect
import DecafWire

/// The numbers a mobile IM team watches on a weak network, for a whole capture: handshake times,
/// each end's ACK round trips, messages delivered (acknowledged), sent again and never
/// acknowledged, read receipts repeated (a message delivered twice), how long a session took to
/// deliver again after losing a connection, heartbeat intervals, and bytes per message delivered.
/// Durations are bounded distributions (`RoundTripDistribution`); sessions are followed by
/// session_id, at most 65,536.
public struct FieldMetrics: Sendable {
    public internal(set) var connections = 0
    public internal(set) var handshakes = RoundTripDistribution()
    /// ACK round trips as the capture point sees them, by the end that acknowledged.
    var roundTrips = PerEnd(both: RoundTripDistribution())
    /// Time between heartbeats, by the end that sent them.
    var heartbeatIntervals = PerEnd(both: RoundTripDistribution())
    /// From a session's connection's last frame to its next connection's first message delivered.
    public internal(set) var reconnects = RoundTripDistribution()
    public private(set) var reconnectCount = 0
    public private(set) var messages = 0
    public private(set) var resent = 0
    public private(set) var acknowledged = 0
    public private(set) var readReceipts = 0
    /// Messages a second READ_RECEIPT reported: delivered twice.
    public private(set) var deliveredTwice = 0
    public private(set) var bytes = 0
    /// Each session's connections, by session_id.
    public private(set) var sessionConnections: [UInt16: Int] = [:]
    /// What each connection measured, the first `listLimit` to end.
    public private(set) var perConnection: [ConnectionSummary] = []
    /// What each session measured over its connections, the first `listLimit` sessions.
    public private(set) var perSession: [UInt16: SessionSummary] = [:]
    static let listLimit = 10_000

    /// One connection's numbers.
    public struct ConnectionSummary: Sendable, Encodable {
        public var connection: Int
        public var session: UInt16?
        public var start: String?
        public var end: String?
        /// From the request to the response, nanoseconds.
        public var handshake: Int64?
        /// DATA frames sent (resends included) and the first ACKs they got.
        public var dataSent: Int
        public var dataAcknowledged: Int
        public var bytes: Int
    }

    /// One session's numbers, over its connections.
    public struct SessionSummary: Sendable, Encodable {
        public var session: UInt16
        public var connections = 0
        public var reconnects = 0
        public var dataSent = 0
        public var dataAcknowledged = 0
        public var bytes = 0
        /// Each reconnect's time from loss to the next delivery, nanoseconds (the first 100).
        public var reconnectTimes: [Int64] = []
    }
    /// When each session's latest ended connection last carried a frame.
    private var lostAt: [UInt16: CaptureTime] = [:]

    public init() {}

    /// A frame as REPLAY-1 names it: its session, sequence and timestamp; a resend keeps all three.
    struct Identity: Hashable, Sendable {
        var sessionAndSequence: UInt64
        var timestamp: UInt32

        init(_ header: FrameHeader) {
            sessionAndSequence = DirectionLedger.key(header)
            timestamp = header.timestamp
        }
    }

    /// Messages and read receipts seen, messages acknowledged, and messages a receipt reported,
    /// across a session's connections (a message resent after a reconnect is the same message):
    /// at most `keyLimit` of each, then forgotten and counted afresh.
    private var messageKeys = Set<Identity>()
    private var deliveredKeys = Set<Identity>()
    private var receiptKeys = Set<Identity>()
    private var receiptsFor = Set<Identity>()
    static let keyLimit = 1 << 16

    /// A DATA frame sent: a message, or a message sent again.
    mutating func sent(message header: FrameHeader) {
        if Self.remember(Identity(header), in: &messageKeys) { messages += 1 } else { resent += 1 }
    }

    /// A DATA frame acknowledged: the message is delivered, once however often acknowledged.
    mutating func delivered(message header: FrameHeader) {
        if Self.remember(Identity(header), in: &deliveredKeys) { acknowledged += 1 }
    }

    /// A READ_RECEIPT sent (resends of one counted once), for the message `reported` names (the
    /// DATA header it reports, when its connection showed it): a second receipt for the same
    /// message means the receiver delivered it twice (REPLAY-1).
    mutating func sent(readReceipt header: FrameHeader, for reported: FrameHeader?) {
        guard Self.remember(Identity(header), in: &receiptKeys) else { return }
        readReceipts += 1
        guard let reported else { return }
        if !Self.remember(Identity(reported), in: &receiptsFor) { deliveredTwice += 1 }
    }

    private static func remember<Key: Hashable>(_ key: Key, in keys: inout Set<Key>) -> Bool {
        if keys.count >= keyLimit { keys.removeAll(keepingCapacity: true) }
        return keys.insert(key).inserted
    }

    /// Messages sent and never acknowledged.
    public var neverAcknowledged: Int { max(0, messages - acknowledged) }

    /// Adds what ended connection `index` measured; returns the reconnect it ended, when it
    /// delivered again for a session that had lost a connection (ns).
    @discardableResult
    mutating func add(_ connection: ConnectionMetrics, index: Int) -> Int64? {
        connections += 1
        bytes += connection.bytes
        if perConnection.count < Self.listLimit {
            perConnection.append(ConnectionSummary(connection: index, session: connection.session?.rawValue, start: connection.firstTime?.description,
                                                   end: connection.lastTime?.description, handshake: connection.handshake,
                                                   dataSent: connection.dataSent, dataAcknowledged: connection.dataAcknowledged, bytes: connection.bytes))
        }
        guard let session = connection.session?.rawValue else { return nil }
        sessionConnections[session, default: 0] += 1
        let listed = perSession[session] != nil || perSession.count < Self.listLimit
        if listed {
            perSession[session, default: SessionSummary(session: session)].connections += 1
            perSession[session]?.dataSent += connection.dataSent
            perSession[session]?.dataAcknowledged += connection.dataAcknowledged
            perSession[session]?.bytes += connection.bytes
        }
        var reconnect: Int64?
        if let lost = lostAt[session], let delivered = connection.firstDelivery, let first = connection.firstTime, first >= lost {
            let time = delivered.nanoseconds(since: lost)
            reconnects.record(time)
            reconnectCount += 1
            reconnect = time
            if listed {
                perSession[session]?.reconnects += 1
                if perSession[session]?.reconnectTimes.count ?? 0 < 100 { perSession[session]?.reconnectTimes.append(time) }
            }
        }
        if let last = connection.lastTime { lostAt[session] = last }
        return reconnect
    }

    /// The share of messages sent again.
    public var resendRate: Double { messages == 0 ? 0 : Double(resent) / Double(messages + resent) }

    /// Bytes on the wire, both ways, per message delivered.
    public var bytesPerDelivered: Int? { acknowledged == 0 ? nil : bytes / acknowledged }
}
