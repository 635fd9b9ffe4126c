import DecafWire

/// A way the reference client misbehaves on purpose (`decaf testee client --fault NAME`), so that
/// `decaf conform client` can be shown to catch it. Each imitates a defect seen in mobile clients
/// and breaks the requirements in `breaks`; the two backoff faults and the dropped idle connection
/// break no requirement of the brief, which does not demand a backoff nor keeping a connection,
/// and are caught by recommended cases only.
public enum ClientFault: String, Hashable, Sendable, CaseIterable {
    /// The client resends an unacknowledged message under a new sequence number.
    case newSequenceOnResend = "new-sequence-on-resend"
    /// The client never resends an unacknowledged message.
    case noResend = "no-resend"
    /// The client resends an unacknowledged message without limit.
    case resendForever = "resend-forever"
    /// The client acknowledges the server's ACK frames.
    case acksAnAck = "acks-an-ack"
    /// The client never acknowledges the server's DATA frames.
    case neverAcksServerData = "never-acks-server-data"
    /// The client acknowledges every frame twice.
    case doubleAck = "double-ack"
    /// The client never answers the server's HEARTBEAT.
    case noHeartbeatAck = "no-heartbeat-ack"
    /// The client delivers a repeated DATA frame to the application again.
    case deliversRepeats = "delivers-repeats"
    /// The client forgets the DATA frames it delivered when it connects again, so a repeat on the new connection is delivered twice.
    case forgetsRepeatsOnReconnect = "forgets-repeats-on-reconnect"
    /// The client sends a READ_RECEIPT again for a repeated DATA frame.
    case receiptsForRepeats = "receipts-for-repeats"
    /// The client sets compress_type 1 on bodies it does not compress, once COMPRESSION is agreed.
    case plainBodyMarkedZlib = "plain-body-marked-zlib"
    /// The client sends read receipts and compressed bodies whatever the handshake agreed.
    case ignoresAgreedFeatures = "ignores-agreed-features"
    /// The client writes the checksum of every frame in little-endian.
    case checksumInHostOrder = "checksum-in-host-order"
    /// The client does not verify checksums, so it delivers damaged frames.
    case acceptsBadCRC = "accepts-bad-crc"
    /// The client never acknowledges the VERSION_RESPONSE.
    case ignoresVersionResponse = "ignores-version-response"
    /// The client drops a VERSION_RESPONSE that comes before the ACK of its request.
    case responseAfterAckOnly = "response-after-ack-only"
    /// The client closes the connection on a frame of an undefined message type.
    case closesOnUnknownType = "closes-on-unknown-type"
    /// The client reconnects at once, again and again.
    case noBackoff = "no-backoff"
    /// The client waits exactly the backoff, so clients cut together come back together.
    case noJitter = "no-jitter"
    /// The client crashes when a container nested three deep holds an empty TEXT (found by fuzzing).
    case crashOnDeepEmptyText = "crash-on-deep-empty-text"
    /// The client stops handling the connection (no ACK, no close) when a zlib body inflates to exactly the body limit (found by fuzzing).
    case hangAtInflateLimit = "hang-at-inflate-limit"
    /// The client refuses an empty container at the depth limit as TLV_TOO_DEEP: an off-by-one in the depth count (found by fuzzing).
    case refuseEmptyDeepContainer = "refuse-empty-deep-container"
    /// The client reports bytes that break the protocol but neither sends an ERROR nor closes: the connection stays open, unread.
    case keepsConnectionOnError = "keeps-connection-on-error"
    /// The client dies of bytes that break the protocol: an uncaught exception on standard error, exit status 1.
    case exitsOnError = "exits-on-error"
    /// The client sends every message twice at once, and resends an unacknowledged one with a new timestamp.
    case copyThenNewTimestamp = "copy-then-new-timestamp"
    /// The client closes an idle connection after two and a half heartbeat intervals and connects again.
    case dropsIdleConnection = "drops-idle-connection"

    /// Faults only deep, rare inputs set off, which no conformance case sends: the targets that
    /// prove `decaf fuzz client` finds what the fixed cases cannot.
    public static let rare: [ClientFault] = [.crashOnDeepEmptyText, .hangAtInflateLimit, .refuseEmptyDeepContainer]

    /// The faults the client suite's cases catch: every fault but the rare ones.
    public static let all: [ClientFault] = allCases.filter { !rare.contains($0) }

    /// The name `--fault` takes.
    public var name: String { rawValue }

    /// What the client does wrong, in one line.
    public var summary: String {
        switch self {
        case .newSequenceOnResend: "resends an unacknowledged message under a new sequence number"
        case .noResend: "never resends an unacknowledged message"
        case .resendForever: "resends an unacknowledged message without limit"
        case .acksAnAck: "acknowledges the server's ACK frames"
        case .neverAcksServerData: "never acknowledges the server's DATA frames"
        case .doubleAck: "acknowledges every frame twice"
        case .noHeartbeatAck: "never answers the server's HEARTBEAT"
        case .deliversRepeats: "delivers a repeated DATA frame to the application again"
        case .forgetsRepeatsOnReconnect: "forgets the DATA frames it delivered when it connects again, so a repeat on the new connection is delivered twice"
        case .receiptsForRepeats: "sends a READ_RECEIPT again for a repeated DATA frame"
        case .plainBodyMarkedZlib: "sets compress_type 1 on bodies it does not compress, once COMPRESSION is agreed"
        case .ignoresAgreedFeatures: "sends read receipts and compressed bodies whatever the handshake agreed"
        case .checksumInHostOrder: "writes the checksum of every frame in little-endian"
        case .acceptsBadCRC: "does not verify checksums, so it delivers damaged frames"
        case .ignoresVersionResponse: "never acknowledges the VERSION_RESPONSE"
        case .responseAfterAckOnly: "drops a VERSION_RESPONSE that comes before the ACK of its request"
        case .closesOnUnknownType: "closes the connection on a frame of an undefined message type"
        case .noBackoff: "reconnects at once, again and again"
        case .noJitter: "waits exactly the backoff, so clients cut together come back together"
        case .crashOnDeepEmptyText: "crashes when a container nested three deep holds an empty TEXT (found by fuzzing)"
        case .hangAtInflateLimit: "stops handling the connection (no ACK, no close) when a zlib body inflates to exactly the body limit (found by fuzzing)"
        case .refuseEmptyDeepContainer: "refuses an empty container at the depth limit as TLV_TOO_DEEP: an off-by-one in the depth count (found by fuzzing)"
        case .keepsConnectionOnError: "reports bytes that break the protocol but neither sends an ERROR nor closes: the connection stays open, unread"
        case .exitsOnError: "dies of bytes that break the protocol: an uncaught exception on standard error, exit status 1"
        case .copyThenNewTimestamp: "sends every message twice at once, and resends an unacknowledged one with a new timestamp"
        case .dropsIdleConnection: "closes an idle connection after two and a half heartbeat intervals and connects again"
        }
    }

    /// The brief's requirements a client with this fault breaks.
    public var breaks: [RequirementID] {
        switch self {
        case .newSequenceOnResend, .noResend, .resendForever: [.ex7]
        case .acksAnAck: [.ex3]
        case .neverAcksServerData, .doubleAck, .ignoresVersionResponse: [.ex1]
        case .noHeartbeatAck: [.ex2]
        case .deliversRepeats, .forgetsRepeatsOnReconnect: [.replay1]
        case .ignoresAgreedFeatures, .receiptsForRepeats: [.ex4]
        case .plainBodyMarkedZlib: [.zlib1]
        case .checksumInHostOrder: [.crc1]
        case .acceptsBadCRC: [.crc2]
        case .responseAfterAckOnly: [.hs2]
        case .closesOnUnknownType: [.frame4]
        case .noBackoff, .noJitter: []
        case .crashOnDeepEmptyText: [.ex5]
        case .hangAtInflateLimit: [.zlib2, .ex1]
        case .refuseEmptyDeepContainer: [.tlv2]
        case .keepsConnectionOnError, .exitsOnError: [.ex5]
        case .copyThenNewTimestamp: [.replay1]
        case .dropsIdleConnection: []
        }
    }
}
