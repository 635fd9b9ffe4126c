/// The frames a connection has seen recently, by (sequence, timestamp), so a repeat is recognised
/// (REPLAY-1). Entries older than the window are forgotten, and so are the oldest ones beyond the
/// limit: memory stays bounded whatever a client sends.
struct ReplayMemory {
    struct Key: Hashable {
        var sequence: UInt32
        var timestamp: UInt32
    }

    let window: UInt32
    let limit: Int
    private var seen: Set<Key> = []
    /// Keys with the time they were first seen, oldest first, from `head` on.
    private var order: [(key: Key, seenAt: UInt32)] = []
    private var head = 0

    init(window: UInt32, limit: Int) {
        self.window = window
        self.limit = max(1, limit)
    }

    var count: Int { seen.count }

    /// Records `key` at `now`; false if it was already remembered (a repeat).
    mutating func insert(_ key: Key, now: UInt32) -> Bool {
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
