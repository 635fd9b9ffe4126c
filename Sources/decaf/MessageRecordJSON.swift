import DecafPeer
import DecafWire

/// One message in `decaf peer --deliveries` and `decaf send --messages`: the frame's identity
/// (session, sequence and timestamp, as the replay memory keys it) and when things happened to it,
/// in UNIX seconds, so the two files join on the identity.
struct MessageRecordJSON: Encodable {
    var session: UInt16
    var sequence: UInt32
    var timestamp: UInt32
    var sent: Double?
    var acknowledged: Double?
    var sends: Int?
    var delivered: Double?

    /// A delivery at `delivered`.
    init(_ header: FrameHeader, delivered: Double) {
        session = header.sessionID.rawValue
        sequence = header.sequence.rawValue
        timestamp = header.timestamp
        self.delivered = delivered
    }

    /// A message `decaf send` settled.
    init(_ message: SentMessage) {
        session = message.session.rawValue
        sequence = message.sequence.rawValue
        timestamp = message.timestamp
        sent = message.sent
        acknowledged = message.acknowledged
        sends = message.sends
    }
}
