import DecafWire

/// What makes a frame a repeat of another for a receiver (REPLAY-1): its sequence and timestamp.
/// The session_id is left out, so a client that remembers frames without it is judged fairly too.
struct RepeatKey: Hashable, Sendable {
    var sequence: UInt32
    var timestamp: UInt32

    init(_ header: FrameHeader) {
        sequence = header.sequence.rawValue
        timestamp = header.timestamp
    }
}
