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
    /// The client crashes when a zlib-compressed body holds a TEXT field that is not UTF-8 (found by fuzzing).
    case crashOnCompressedInvalidText = "crash-on-compressed-invalid-text"
    /// The client crashes on a DATA frame with an empty TEXT field once it has delivered another
    /// DATA frame: a fault of a session's later messages, never of its first (found by fuzzing).
    case crashOnLaterEmptyText = "crash-on-later-empty-text"
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
    /// The client writes version 1.1 in its headers before a handshake agrees a version.
    case versionBeforeAgreed = "version-before-agreed"
    /// The client drops a VERSION_RESPONSE that comes after the ACK of its request.
    case responseBeforeAckOnly = "response-before-ack-only"
    /// The client drops a repeated DATA frame without acknowledging it again.
    case noAckForRepeats = "no-ack-for-repeats"
    /// The client sends every message under the same sequence number.
    case reusesSequence = "reuses-sequence"
    /// The client delivers the values of a DATA body's fields, not its TLV bytes.
    case deliversValuesOnly = "delivers-values-only"
    /// The client encodes a TEXT value in ISO-8859-1 (a platform's default charset), not UTF-8.
    case textInLatin1 = "text-in-latin1"
    /// The client drops the fields of unknown tags from the bodies it delivers and sends.
    case dropsUnknownTags = "drops-unknown-tags"
    /// An ACK does not stop the client's resend timer: a message goes out once more after its ACK.
    case resendsAfterAck = "resends-after-ack"
    /// The client resends after half its ACK timeout.
    case impatientResend = "impatient-resend"
    /// The client forgets the messages in flight when a connection is lost: neither resent nor reported failed.
    case forgetsInFlightOnLoss = "forgets-in-flight-on-loss"
    /// The client takes each read as one frame: the rest of a read is dropped, a read shorter than a frame thrown away.
    case framePerRead = "frame-per-read"
    /// The client refuses four nested containers, the brief's depth limit, as TLV_TOO_DEEP.
    case depthLimitThree = "depth-limit-three"
    /// The client closes the connection on a DATA frame whose sequence category does not fit.
    case closesOnCategoryMismatch = "closes-on-category-mismatch"
    /// The client takes a DATA frame whose counter is not one more than the last for a repeat.
    case expectsContiguousCounters = "expects-contiguous-counters"
    /// The client neither takes nor refuses a frame with a repeated tag: no ACK, no ERROR, the connection left open.
    case ignoresDuplicateTags = "ignores-duplicate-tags"
    /// The client refuses every zlib body as UNSUPPORTED_COMPRESSION, though it offered COMPRESSION.
    case neverInflates = "never-inflates"
    /// The client inflates an empty body marked ZLIB, and refuses it as a broken zlib stream.
    case inflatesEmptyBody = "inflates-empty-body"
    /// The client keeps one message waiting to go out: a newer one replaces it, and the replaced one is lost unreported.
    case singleSlotOutbox = "single-slot-outbox"

    /// Faults only deep, rare inputs set off, which no conformance case sends: the targets that
    /// prove `decaf fuzz client` finds what the fixed cases cannot.
    public static let rare: [ClientFault] = [.crashOnDeepEmptyText, .hangAtInflateLimit, .refuseEmptyDeepContainer, .crashOnCompressedInvalidText,
                                             .crashOnLaterEmptyText]

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
        case .crashOnCompressedInvalidText: "crashes when a zlib-compressed body holds a TEXT field that is not UTF-8 (found by fuzzing)"
        case .crashOnLaterEmptyText: "crashes on a DATA frame with an empty TEXT field once it has delivered another DATA frame (found by fuzzing a session)"
        case .hangAtInflateLimit: "stops handling the connection (no ACK, no close) when a zlib body inflates to exactly the body limit (found by fuzzing)"
        case .refuseEmptyDeepContainer: "refuses an empty container at the depth limit as TLV_TOO_DEEP: an off-by-one in the depth count (found by fuzzing)"
        case .keepsConnectionOnError: "reports bytes that break the protocol but neither sends an ERROR nor closes: the connection stays open, unread"
        case .exitsOnError: "dies of bytes that break the protocol: an uncaught exception on standard error, exit status 1"
        case .copyThenNewTimestamp: "sends every message twice at once, and resends an unacknowledged one with a new timestamp"
        case .dropsIdleConnection: "closes an idle connection after two and a half heartbeat intervals and connects again"
        case .versionBeforeAgreed: "writes version 1.1 in its headers before a handshake agrees a version"
        case .responseBeforeAckOnly: "drops a VERSION_RESPONSE that comes after the ACK of its request"
        case .noAckForRepeats: "drops a repeated DATA frame without acknowledging it again"
        case .reusesSequence: "sends every message under the same sequence number"
        case .deliversValuesOnly: "delivers the values of a DATA body's fields, not its TLV bytes"
        case .textInLatin1: "encodes a TEXT value in ISO-8859-1 (a platform's default charset), not UTF-8"
        case .dropsUnknownTags: "drops the fields of unknown tags from the bodies it delivers and sends"
        case .resendsAfterAck: "does not stop its resend timer on an ACK: a message goes out once more after its ACK"
        case .impatientResend: "resends after half its ACK timeout"
        case .forgetsInFlightOnLoss: "forgets the messages in flight when a connection is lost: neither resent nor reported failed"
        case .framePerRead: "takes each read as one frame: the rest of a read is dropped, a read shorter than a frame thrown away"
        case .depthLimitThree: "refuses four nested containers, the brief's depth limit, as TLV_TOO_DEEP"
        case .closesOnCategoryMismatch: "closes the connection on a DATA frame whose sequence category does not fit its type"
        case .expectsContiguousCounters: "takes a DATA frame whose counter is not one more than the last for a repeat: acknowledged, not delivered"
        case .ignoresDuplicateTags: "neither takes nor refuses a frame with a repeated tag: no ACK, no ERROR, the connection left open"
        case .neverInflates: "refuses every zlib body as UNSUPPORTED_COMPRESSION, though it offered COMPRESSION"
        case .inflatesEmptyBody: "inflates an empty body marked ZLIB, and refuses it as a broken zlib stream"
        case .singleSlotOutbox: "keeps one message waiting to go out: a newer one replaces it, and the replaced one is neither sent nor reported failed"
        }
    }

    /// What to change, in one line: the rule the fault breaks, as a client must keep it.
    public var fix: String {
        switch self {
        case .newSequenceOnResend: "resend an unacknowledged message with its sequence and timestamp unchanged"
        case .noResend: "resend a message whose ACK does not come within the ACK timeout, up to the resend limit"
        case .resendForever: "stop resending after the resend limit and report the message failed"
        case .acksAnAck: "never acknowledge an ACK"
        case .neverAcksServerData, .ignoresVersionResponse: "acknowledge every DATA and CONTROL frame the server sends, with its sequence"
        case .doubleAck: "acknowledge each frame once"
        case .noHeartbeatAck: "answer every HEARTBEAT with an ACK carrying its sequence"
        case .deliversRepeats, .noAckForRepeats: "acknowledge a repeated DATA frame again, and deliver it only once"
        case .forgetsRepeatsOnReconnect: "keep what was delivered per session, across its connections, for the replay window"
        case .receiptsForRepeats: "send a READ_RECEIPT once per message, not again for a repeat"
        case .plainBodyMarkedZlib: "set compress_type ZLIB only on a body you compressed"
        case .ignoresAgreedFeatures: "use only the features the handshake agreed: no READ_RECEIPT or compression unless agreed"
        case .checksumInHostOrder: "write the checksum big-endian, as every header field"
        case .acceptsBadCRC: "verify the CRC-32 of every body and refuse a mismatch with ERROR CHECKSUM_MISMATCH, then close"
        case .responseAfterAckOnly, .responseBeforeAckOnly: "take the VERSION_RESPONSE whether it comes before or after the ACK of the request"
        case .closesOnUnknownType: "skip a frame of an undefined message type without an ACK, and keep the connection"
        case .noBackoff: "wait an exponential backoff between reconnects"
        case .noJitter: "add random jitter to the backoff, so clients cut together do not come back together"
        case .crashOnDeepEmptyText: "an empty TEXT is valid at any depth: handle a zero length without crashing"
        case .crashOnCompressedInvalidText: "a TEXT that is not UTF-8 is the application's to judge, not a protocol error: never crash on it"
        case .crashOnLaterEmptyText: "an empty TEXT is valid in any message of a session: handle a zero length whatever came before"
        case .hangAtInflateLimit: "a body that inflates to exactly the body limit is allowed: answer it as any other"
        case .refuseEmptyDeepContainer: "count a container's depth once, whether it is empty or not"
        case .keepsConnectionOnError, .exitsOnError: "on bytes that break the protocol, send ERROR with the code and close the connection"
        case .copyThenNewTimestamp: "send a message once; a resend keeps its sequence and timestamp"
        case .dropsIdleConnection: "keep an idle connection open, sending a HEARTBEAT every interval"
        case .versionBeforeAgreed: "write version 1.0 in headers until the handshake agrees a higher one"
        case .reusesSequence: "give each new message the next counter of its category"
        case .expectsContiguousCounters: "tell repeats by (session, sequence, timestamp) alone; counters may jump"
        case .deliversValuesOnly: "deliver a DATA body's TLV bytes as they came"
        case .textInLatin1: "encode TEXT values in UTF-8"
        case .dropsUnknownTags: "keep the fields of unknown tags: deliver and send them as they are"
        case .resendsAfterAck: "stop a message's resend timer when its ACK comes"
        case .impatientResend: "resend only after the whole ACK timeout"
        case .forgetsInFlightOnLoss: "on a lost connection, resend the unacknowledged messages on the next one or report them failed"
        case .framePerRead: "read a stream: keep a partial frame for the next read, and decode every frame a read holds"
        case .depthLimitThree: "parse four levels of container nesting, the brief's limit; refuse a fifth"
        case .closesOnCategoryMismatch: "take a DATA frame whatever its sequence's category"
        case .ignoresDuplicateTags: "refuse a repeated tag with ERROR TLV_DUPLICATE_TAG and close, or take the frame if you allow repeats"
        case .neverInflates: "inflate a zlib body once COMPRESSION is agreed (or do not offer COMPRESSION)"
        case .inflatesEmptyBody: "take a body_length of 0 as an empty body, whatever compress_type says"
        case .singleSlotOutbox: "queue every message to send; none may be lost unreported"
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
        case .ignoresAgreedFeatures: [.ex4, .hs2]
        case .receiptsForRepeats: [.ex4]
        case .plainBodyMarkedZlib: [.zlib1]
        case .checksumInHostOrder: [.crc1]
        case .acceptsBadCRC: [.crc2]
        case .responseAfterAckOnly: [.hs2]
        case .closesOnUnknownType: [.frame4]
        case .noBackoff, .noJitter: []
        case .crashOnDeepEmptyText: [.ex5]
        case .crashOnCompressedInvalidText, .crashOnLaterEmptyText: [.ex5]
        case .hangAtInflateLimit: [.zlib2, .ex1]
        case .refuseEmptyDeepContainer: [.tlv2]
        case .keepsConnectionOnError, .exitsOnError: [.ex5]
        case .copyThenNewTimestamp: [.replay1]
        case .dropsIdleConnection: []
        case .versionBeforeAgreed: [.ver3]
        case .responseBeforeAckOnly: [.hs2]
        case .noAckForRepeats: [.replay1]
        case .reusesSequence, .expectsContiguousCounters: [.seq1]
        case .deliversValuesOnly: [.tlv1]
        case .textInLatin1, .dropsUnknownTags: [.tlv4]
        case .resendsAfterAck, .impatientResend, .forgetsInFlightOnLoss, .singleSlotOutbox: [.ex7]
        case .framePerRead: [.frame3]
        case .depthLimitThree: [.tlv2]
        case .closesOnCategoryMismatch: [.seq2]
        case .ignoresDuplicateTags: [.tlv3]
        case .neverInflates: [.zlib1]
        case .inflatesEmptyBody: [.zlib3]
        }
    }
}
