import DecafWire

/// The frames seen recently, by session, sequence and timestamp, so a repeat is recognised
/// (REPLAY-1), also when it comes on a new connection of the same session. Session ids are only 16
/// bits: two clients that share one are told apart by sequence and timestamp together. Entries
/// older than the window are forgotten, and so are the oldest ones beyond the limit: memory stays
/// bounded whatever clients send.
public struct ReplayMemory: Sendable {
    /// What makes two frames the same: session, sequence and timestamp.
    public struct Key: Hashable, Sendable {
        /// The session_id.
        public var session: UInt16
        /// The sequence, category and counter.
        public var sequence: UInt32
        /// The timestamp.
        public var timestamp: UInt32

        /// The key of the frame with `header`.
        public init(_ header: FrameHeader) {
            session = header.sessionID.rawValue
            sequence = header.sequence.rawValue
            timestamp = header.timestamp
        }
    }

    /// How long a frame is remembered, in seconds.
    public let window: UInt32
    /// How many frames are remembered at most.
    public let limit: Int
    private var seen: Set<Key> = []
    /// Keys with the time they were first seen, oldest first, from `head` on.
    private var order: [(key: Key, seenAt: UInt32)] = []
    private var head = 0

    /// An empty memory of `window` seconds and at most `limit` frames.
    public init(window: UInt32, limit: Int) {
        self.window = window
        self.limit = max(1, limit)
    }

    /// How many frames are remembered.
    public var count: Int { seen.count }

    /// Whether `key` is remembered: a frame with it would be a repeat.
    public func contains(_ key: Key) -> Bool { seen.contains(key) }

    /// Records `key` at `now`; false if it was already remembered (a repeat).
    public mutating func insert(_ key: Key, now: UInt32) -> Bool {
        while head < order.count, order[head].seenAt < now, now - order[head].seenAt > window {
            forgetOldest()
        }
        guard !seen.contains(key) else { return false }
        while seen.count >= limit { forgetOldest() }
        seen.insert(key)
        order.append((key, now))
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return true
    }

    private mutating func forgetOldest() {
        seen.remove(order[head].key)
        head += 1
    }
}
