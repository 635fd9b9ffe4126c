/// A stable requirement identifier of the wire-v1 spec (`Specs/decaf-wire-v1.md`: the brief's, and
/// Decaf's own for what the brief leaves open), so every
/// verdict, vector and conformance case can say which rule it checks.
public enum RequirementID: String, CaseIterable, Sendable, Hashable, Codable {
    /// Frames: the magic, the body limit, completeness.
    case frame1 = "FRAME-1", frame2 = "FRAME-2", frame3 = "FRAME-3"
    /// Frames: undefined types, encrypt_type and compress_type.
    case frame4 = "FRAME-4", frame5 = "FRAME-5", frame6 = "FRAME-6"
    /// The checksum: what it covers, that a mismatch is fatal, the little-endian report.
    case crc1 = "CRC-1", crc2 = "CRC-2", crc3 = "CRC-3"
    /// The version: major, minor, and what a client sends before the handshake.
    case ver1 = "VER-1", ver2 = "VER-2", ver3 = "VER-3"
    /// Sequences and their categories.
    case seq1 = "SEQ-1", seq2 = "SEQ-2"
    /// The timestamp window.
    case ts1 = "TS-1"
    /// The session id.
    case session1 = "SESSION-1"
    /// Repeats: acknowledged again, delivered once.
    case replay1 = "REPLAY-1"
    /// The TLV body: framing, depth, repeated tags, unknown tags.
    case tlv1 = "TLV-1", tlv2 = "TLV-2", tlv3 = "TLV-3", tlv4 = "TLV-4"
    /// zlib bodies: the stream, the inflate limit, the empty body.
    case zlib1 = "ZLIB-1", zlib2 = "ZLIB-2", zlib3 = "ZLIB-3"
    /// The handshake: the client's request, the server's answer.
    case hs1 = "HS-1", hs2 = "HS-2"
    /// The exchange: ACKs, heartbeats, undefined types, read receipts, errors and closes, idle timeouts, retransmission.
    case ex1 = "EX-1", ex2 = "EX-2", ex3 = "EX-3", ex4 = "EX-4", ex5 = "EX-5", ex6 = "EX-6", ex7 = "EX-7"
    /// Decaf's own, for what the brief leaves open: how a client reconnects.
    case reconnect1 = "RECONNECT-1"

    /// The rule in one sentence, for reports that quote the requirement they checked.
    public var summary: String {
        switch self {
        case .frame1: "magic MUST be 0xDECAFBAD; any other value is fatal"
        case .frame2: "body_length MUST NOT exceed the receiver's limit; rejected from the header alone"
        case .frame3: "a frame is complete after 28 + body_length bytes; a stream ending inside one is truncated"
        case .frame4: "unknown msg_type values are checked, skipped, never acknowledged and not fatal"
        case .frame5: "encrypt_type outside 0-2, or 2 at a receiver that cannot decrypt, is fatal"
        case .frame6: "compress_type outside 0-1 is fatal"
        case .crc1: "checksum is the CRC-32/ISO-HDLC of the body as sent, big-endian; 0 for an empty body"
        case .crc2: "a checksum mismatch is fatal and is detected before decompressing or parsing"
        case .crc3: "a mismatch report SHOULD say when the checksum was written little-endian"
        case .ver1: "a frame whose version_major differs from the receiver's is rejected"
        case .ver2: "a version_minor up to the receiver's highest is accepted, a higher one rejected"
        case .ver3: "clients send 1.0 until the handshake completes, then the negotiated version"
        case .seq1: "sequence = category << 24 | counter; counters wrap 0xFFFFFF to 0 per category"
        case .seq2: "a category that does not match msg_type is a warning, never fatal; ACK is exempt"
        case .ts1: "a receiver MAY reject timestamps farther than its window from its clock"
        case .session1: "session_id = high XOR low half of the UUID's first 32 bits; replies echo it"
        case .replay1: "a repeated frame is acknowledged again but never delivered twice"
        case .tlv1: "the body is a tight sequence of tag u16, length u32, value; consumed exactly"
        case .tlv2: "tag 0xFFFF nests a TLV sequence; parsing deeper than the limit is fatal"
        case .tlv3: "a tag repeated in one sequence is fatal unless duplicates are allowed"
        case .tlv4: "unknown tags are kept as raw bytes, never an error"
        case .zlib1: "a ZLIB body is exactly one complete, valid zlib stream"
        case .zlib2: "inflating stops as soon as the output passes the body limit"
        case .zlib3: "a body_length of 0 is an empty body whatever compress_type says"
        case .hs1: "a client's first frame SHOULD be CONTROL with VERSION_REQUEST"
        case .hs2: "the server ACKs and answers VERSION_RESPONSE with min minor and AND of features"
        case .ex1: "DATA, CONTROL and READ_RECEIPT get exactly one ACK with the same sequence"
        case .ex2: "HEARTBEAT is answered by an ACK carrying its sequence"
        case .ex3: "ACK frames and unknown msg_types are never acknowledged"
        case .ex4: "with READ_RECEIPT agreed, each delivered DATA frame gets a READ_RECEIPT"
        case .ex5: "on a fatal error send an ERROR TLV, then close; never crash, hang or leak"
        case .ex6: "a server closes a connection idle for its timeout"
        case .ex7: "an unacknowledged frame is resent with the same sequence, up to 3 times"
        case .reconnect1: "a client SHOULD reconnect after a loss, waiting longer each time up to a cap, with jitter, never hammering"
        }
    }
}
