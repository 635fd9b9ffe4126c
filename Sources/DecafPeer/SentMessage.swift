import DecafWire

/// A message `decaf send` settled: its identity on the wire, when it first went out and when its
/// ACK came (UNIX seconds; nil if it never came), and how many times it was sent.
public struct SentMessage: Hashable, Sendable {
    public var session: SessionID
    public var sequence: SequenceNumber
    public var timestamp: UInt32
    public var sent: Double
    public var acknowledged: Double?
    public var sends: Int
}
