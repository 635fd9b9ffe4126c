/// Bytes that crossed a connection, in the order they did: what a report shows as the exchange
/// between a tool and the implementation it tested.
public struct TranscriptEntry: Hashable, Sendable {
    /// Which way the bytes went, or what kind of note the entry is.
    public enum Direction: String, Hashable, Sendable, Codable {
        /// From the tool to the implementation under test.
        case sent
        /// From the implementation under test to the tool.
        case received
        /// A line the implementation under test reported on a channel of its own (a client
        /// testee's standard output), not on the wire.
        case reported
        /// What the suite saw happen, in words: who closed or reset a connection, how a testee
        /// ended, the end of its standard error.
        case noted
    }

    /// Which way the bytes went.
    public var direction: Direction
    /// When, from the moment the connection was made.
    public var time: Duration
    /// The bytes, or a reported line's or a note's text.
    public var bytes: [UInt8]
    /// What the sender meant the bytes to be; nil for received bytes.
    public var label: String?
    /// Which connection (from 0), when a case made several.
    public var connection: Int?
    /// For an entry that stands for what a bounded transcript did not keep (`BoundedTranscript`):
    /// the bytes left out here; its own bytes are empty. 0 for every other entry.
    public var notKept = 0

    /// An entry of `bytes` going `direction` at `time`.
    public init(direction: Direction, time: Duration, bytes: [UInt8], label: String? = nil, connection: Int? = nil) {
        self.direction = direction
        self.time = time
        self.bytes = bytes
        self.label = label
        self.connection = connection
    }
}
