/// The distinct timestamps frames were sent with, by session and sequence (`DirectionLedger.key`):
/// a message is its sequence and timestamp (REPLAY-1), a resend keeps both, so a key with two
/// timestamps carried two messages. Bounded: at most `DirectionLedger.limit` timestamps in all,
/// however they spread over keys; past it the table starts afresh, and what it forgot is not
/// judged.
struct TimestampTable: Sendable {
    /// A key's timestamps: one, as a rule, kept inline, so a frame costs no allocation.
    private struct Timestamps: Sendable {
        var first: UInt32
        var others: [UInt32] = []

        var count: Int { 1 + others.count }
    }

    private var table = KeyTable<Timestamps>()
    /// Timestamps kept, over every key.
    private var total = 0

    /// Adds `timestamp` to `key`'s; false when it was there. Starts afresh first when full, and
    /// says so through `forgot`.
    @discardableResult
    mutating func insert(_ timestamp: UInt32, for key: UInt64, forgot: () -> Void = {}) -> Bool {
        if let known = table[key], known.first == timestamp || known.others.contains(timestamp) { return false }
        if total >= DirectionLedger.limit {
            table.removeAll()
            total = 0
            forgot()
        }
        total += 1
        if var known = table[key] {
            known.others.append(timestamp)
            table[key] = known
        } else {
            table[key] = Timestamps(first: timestamp)
        }
        return true
    }

    /// How many distinct timestamps `key` was sent with; nil when none is kept.
    func count(for key: UInt64) -> Int? {
        table[key]?.count
    }
}
