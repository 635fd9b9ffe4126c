@testable import DecafMonitor
import DecafSession
import Testing

/// The monitor's table keyed by session and sequence agrees with a dictionary under any mix of
/// insertions, replacements, removals and forgetting, keys that share a slot included.
@Suite("key table")
struct KeyTableTests {
    /// Keys the way frames make them: session << 32 | category << 24 | counter.
    static func key(session: UInt64, category: UInt64, counter: UInt64) -> UInt64 {
        session << 32 | category << 24 | counter
    }

    @Test("random operations: the same answers as a dictionary, for every key ever used")
    func agreesWithDictionary() {
        var random = SeededRandom(seed: 41)
        var table = KeyTable<Int>()
        var reference: [UInt64: Int] = [:]
        // Few counters in many sessions and categories: runs of neighbours and keys that share
        // a home slot, where linear probing and backward-shift removal can go wrong.
        let keys = (0..<600).map { _ in
            Self.key(session: random.next() % 8, category: random.next() % 3, counter: random.next() % 64)
        }
        for step in 0..<20_000 {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            switch random.next() % 10 {
            case 0..<5:
                table[key] = step
                reference[key] = step
            case 5..<8:
                #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
            case 8:
                table.removeAll { $0 % 3 == 0 }
                reference = reference.filter { $0.value % 3 != 0 }
            default:
                if random.next() % 50 == 0 {
                    table.removeAll()
                    reference.removeAll()
                }
            }
            #expect(table.count == reference.count)
        }
        for key in Set(keys) { #expect(table[key] == reference[key]) }
        #expect(table.allValues.sorted() == reference.values.sorted())
    }

    @Test("a sender's consecutive sequences sit in consecutive slots, each found at its home")
    func consecutiveSequences() {
        var table = KeyTable<Void>()
        for counter in 0..<512 as Range<UInt64> { table[Self.key(session: 7, category: 1, counter: counter)] = () }
        #expect(table.count == 512)
        for counter in 0..<512 as Range<UInt64> { #expect(table.contains(Self.key(session: 7, category: 1, counter: counter))) }
        #expect(!table.contains(Self.key(session: 7, category: 1, counter: 512)))
        #expect(!table.contains(Self.key(session: 8, category: 1, counter: 3)))
    }
}
