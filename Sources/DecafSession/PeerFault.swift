import DecafWire

/// A way the reference peer misbehaves on purpose (`decaf peer --fault NAME`), so that clients and
/// conformance tools can be tested against a known-broken server. Each imitates a defect seen in
/// real implementations and breaks the requirements in `breaks`.
public enum PeerFault: Hashable, Sendable {
    /// The peer writes the checksum of every frame it sends in little-endian.
    case crcLittleEndian
    /// The peer never answers a HEARTBEAT.
    case noHeartbeatAck
    /// The peer acknowledges every CONTROL frame twice.
    case doubleControlAck
    /// The peer acknowledges with the sequence counter plus one.
    case ackWrongSequence
    /// The peer ignores version requests whose body is shorter than 12 bytes, so the normal 10-byte one goes unanswered.
    case handshakeIgnoresShort
    /// The peer answers a version request with features 0x000F instead of the intersection.
    case fixedFeatures
    /// The peer treats a repeated frame as a replay attack and closes the connection.
    case replayReject
    /// The peer delivers a repeated frame again (and sends its read receipt again)
    case replayRedeliver
    /// The peer does not verify checksums.
    case acceptBadCRC
    /// The peer sends an ERROR on a bad magic but keeps the connection open.
    case keepOpenOnBadMagic
    /// The peer sends an ERROR on any bytes that break the protocol but keeps the connection open.
    case keepOpenOnError
    /// The peer acknowledges frames of undefined message types.
    case ackUnknownTypes
    /// The peer closes without an ERROR on TLV nesting deeper than 2.
    case dropOnDeepTLV
    /// The peer delays every ACK by `delay` (1 s by default).
    case slowAck(delay: Duration)
    /// The peer acknowledges ACK frames too.
    case ackAcks
    /// The peer never sends a READ_RECEIPT, though both sides agreed to them.
    case noReadReceipts
    /// The peer sends READ_RECEIPTs though the handshake did not agree to them.
    case readReceiptsUnagreed
    /// The peer never closes an idle connection.
    case noIdleTimeout
    /// The peer does not notice that the client ended its stream: a frame cut short by the end stays
    /// unanswered and the connection open.
    case ignoresStreamEnd
    /// The peer aborts the whole server when a container nested four deep holds an empty TEXT (found by fuzzing).
    case crashOnDeepEmptyText
    /// The peer stops answering a connection (nothing more, not even the close) when a zlib body inflates to exactly the body limit (found by fuzzing).
    case hangAtInflateLimit
    /// The peer refuses with TLV_TOO_DEEP a frame whose empty container sits three containers down, counting it a level deeper (found by fuzzing).
    case refuseEmptyDeepContainer
    /// The peer aborts the whole server when a zlib-compressed body holds a TEXT field that is not UTF-8 (found by fuzzing).
    case crashOnCompressedInvalidText
    /// The peer aborts the whole server on a DATA frame with an empty TEXT field once it has
    /// delivered another DATA frame on the connection: a fault of a session's later messages
    /// (found by fuzzing).
    case crashOnLaterEmptyText

    /// Every fault, `slow-ack` with its default delay.
    public static let all: [PeerFault] = [
        .crcLittleEndian, .noHeartbeatAck, .doubleControlAck, .ackWrongSequence, .handshakeIgnoresShort,
        .fixedFeatures, .replayReject, .replayRedeliver, .acceptBadCRC, .keepOpenOnBadMagic, .keepOpenOnError, .ackUnknownTypes,
        .dropOnDeepTLV, .slowAck(delay: PeerFault.defaultSlowAckDelay), .ackAcks, .noReadReceipts, .readReceiptsUnagreed, .noIdleTimeout,
        .ignoresStreamEnd,
    ]

    /// Faults only deep, rare inputs set off, which no conformance case sends: the targets that
    /// prove `decaf fuzz server` finds what the fixed cases cannot.
    public static let rare: [PeerFault] = [.crashOnDeepEmptyText, .hangAtInflateLimit, .refuseEmptyDeepContainer, .crashOnCompressedInvalidText,
                                           .crashOnLaterEmptyText]

    /// Every fault `--fault` takes.
    public static let named: [PeerFault] = all + rare

    /// The delay of `slow-ack` when none is given.
    public static let defaultSlowAckDelay = Duration.seconds(1)

    /// The name `--fault` takes.
    public var name: String {
        switch self {
        case .crcLittleEndian: "crc-little-endian"
        case .noHeartbeatAck: "no-heartbeat-ack"
        case .doubleControlAck: "double-control-ack"
        case .ackWrongSequence: "ack-wrong-sequence"
        case .handshakeIgnoresShort: "handshake-ignores-short"
        case .fixedFeatures: "fixed-features"
        case .replayReject: "replay-reject"
        case .replayRedeliver: "replay-redeliver"
        case .acceptBadCRC: "accept-bad-crc"
        case .keepOpenOnBadMagic: "keep-open-on-bad-magic"
        case .keepOpenOnError: "keep-open-on-error"
        case .ackUnknownTypes: "ack-unknown-types"
        case .dropOnDeepTLV: "drop-on-deep-tlv"
        case .slowAck: "slow-ack"
        case .ackAcks: "ack-acks"
        case .noReadReceipts: "no-read-receipts"
        case .readReceiptsUnagreed: "read-receipts-unagreed"
        case .noIdleTimeout: "no-idle-timeout"
        case .ignoresStreamEnd: "ignores-stream-end"
        case .crashOnDeepEmptyText: "crash-on-deep-empty-text"
        case .crashOnCompressedInvalidText: "crash-on-compressed-invalid-text"
        case .crashOnLaterEmptyText: "crash-on-later-empty-text"
        case .hangAtInflateLimit: "hang-at-inflate-limit"
        case .refuseEmptyDeepContainer: "refuse-empty-deep-container"
        }
    }

    /// What the peer does wrong, in one line.
    public var summary: String {
        switch self {
        case .crcLittleEndian: "writes the checksum of every frame it sends in little-endian"
        case .noHeartbeatAck: "never answers a HEARTBEAT"
        case .doubleControlAck: "acknowledges every CONTROL frame twice"
        case .ackWrongSequence: "acknowledges with the sequence counter plus one"
        case .handshakeIgnoresShort: "ignores version requests whose body is shorter than 12 bytes, so the normal 10-byte one goes unanswered"
        case .fixedFeatures: "answers a version request with features 0x000F instead of the intersection"
        case .replayReject: "treats a repeated frame as a replay attack and closes the connection"
        case .replayRedeliver: "delivers a repeated frame again (and sends its read receipt again)"
        case .acceptBadCRC: "does not verify checksums"
        case .keepOpenOnBadMagic: "sends an ERROR on a bad magic but keeps the connection open"
        case .keepOpenOnError: "sends an ERROR on any bytes that break the protocol (a bad zlib body, TLV nested too deep) but keeps the connection open"
        case .ackUnknownTypes: "acknowledges frames of undefined message types"
        case .dropOnDeepTLV: "closes without an ERROR on TLV nesting deeper than 2"
        case let .slowAck(delay): "delays every ACK by \(delay)"
        case .ackAcks: "acknowledges ACK frames too"
        case .noReadReceipts: "never sends a READ_RECEIPT, though both sides agreed to them"
        case .readReceiptsUnagreed: "sends READ_RECEIPTs though the handshake did not agree to them"
        case .noIdleTimeout: "never closes an idle connection"
        case .ignoresStreamEnd: "does not notice the end of the client's stream: a frame it cuts short stays unanswered, the connection open"
        case .crashOnDeepEmptyText: "aborts the whole server when a container nested four deep holds an empty TEXT (found by fuzzing)"
        case .crashOnCompressedInvalidText: "aborts the whole server when a zlib-compressed body holds a TEXT field that is not UTF-8 (found by fuzzing)"
        case .crashOnLaterEmptyText: "aborts the whole server on a DATA frame with an empty TEXT once it has delivered another on the connection (found by fuzzing)"
        case .hangAtInflateLimit: "stops answering a connection (nothing more, not even the close) when a zlib body inflates to exactly the body limit (found by fuzzing)"
        case .refuseEmptyDeepContainer: "refuses with TLV_TOO_DEEP a frame whose empty container sits three containers down, counting it a level deeper (found by fuzzing)"
        }
    }

    /// What to change, in one line: the rule the fault breaks, as a server must keep it.
    public var fix: String {
        switch self {
        case .crcLittleEndian: "write the checksum big-endian, as every header field"
        case .noHeartbeatAck: "answer every HEARTBEAT with an ACK carrying its sequence"
        case .doubleControlAck: "acknowledge each CONTROL frame once"
        case .ackWrongSequence: "an ACK carries the sequence of the frame it acknowledges, unchanged"
        case .handshakeIgnoresShort: "answer a VERSION_REQUEST of any valid length (its body is 10 bytes)"
        case .fixedFeatures: "answer with the intersection of the features offered and your own"
        case .replayReject: "acknowledge a repeated frame again and do not deliver it twice; it is not an attack"
        case .replayRedeliver: "remember the (session, sequence, timestamp) delivered: acknowledge a repeat, do not deliver it again"
        case .acceptBadCRC: "verify the CRC-32 of every body and refuse a mismatch with ERROR CHECKSUM_MISMATCH, then close"
        case .keepOpenOnBadMagic, .keepOpenOnError: "after the ERROR for bytes that break the protocol, close the connection"
        case .ackUnknownTypes: "skip a frame of an undefined message type without an ACK"
        case .dropOnDeepTLV: "parse four levels of nesting; refuse a fifth with ERROR TLV_TOO_DEEP, then close"
        case .slowAck: "send the ACK as soon as the frame is taken"
        case .ackAcks: "never acknowledge an ACK"
        case .noReadReceipts: "send a READ_RECEIPT for each delivered DATA frame once READ_RECEIPT is agreed"
        case .readReceiptsUnagreed: "send READ_RECEIPTs only when the handshake agreed READ_RECEIPT"
        case .noIdleTimeout: "close a connection idle for longer than your idle timeout"
        case .ignoresStreamEnd: "when the client's stream ends inside a frame, refuse it (ERROR TRUNCATED_FRAME) and close"
        case .crashOnDeepEmptyText: "an empty TEXT is valid at any depth: handle a zero length without aborting"
        case .crashOnCompressedInvalidText: "a TEXT that is not UTF-8 is the application's to judge, not a protocol error: never abort on it"
        case .crashOnLaterEmptyText: "an empty TEXT is valid in any message of a session: handle a zero length whatever came before"
        case .hangAtInflateLimit: "a body that inflates to exactly the body limit is allowed: answer it as any other"
        case .refuseEmptyDeepContainer: "count a container's depth once, whether it is empty or not"
        }
    }

    /// The requirements a peer with this fault breaks.
    public var breaks: [RequirementID] {
        switch self {
        case .crcLittleEndian: [.crc1]
        case .noHeartbeatAck: [.ex2]
        case .doubleControlAck: [.ex1]
        case .ackWrongSequence: [.ex1, .ex2]
        case .handshakeIgnoresShort: [.hs2]
        case .fixedFeatures: [.hs2]
        case .replayReject: [.replay1]
        case .replayRedeliver: [.replay1]
        case .acceptBadCRC: [.crc2]
        case .keepOpenOnBadMagic: [.ex5, .frame1]
        case .keepOpenOnError: [.ex5]
        case .ackUnknownTypes: [.ex3, .frame4]
        case .dropOnDeepTLV: [.tlv2, .ex5]
        case .slowAck: [.ex1, .ex7]
        case .ackAcks: [.ex3]
        case .noReadReceipts, .readReceiptsUnagreed: [.ex4]
        case .noIdleTimeout: [.ex6]
        case .ignoresStreamEnd: [.frame3, .ex5]
        case .crashOnDeepEmptyText: [.tlv2]
        case .crashOnCompressedInvalidText: [.tlv4, .ex5]
        case .crashOnLaterEmptyText: [.ex5]
        case .hangAtInflateLimit: [.zlib2, .ex1]
        case .refuseEmptyDeepContainer: [.tlv2]
        }
    }

    /// The fault called `name`; `slow-ack` with its default delay.
    public init?(name: String) {
        guard let fault = Self.named.first(where: { $0.name == name }) else { return nil }
        self = fault
    }
}
