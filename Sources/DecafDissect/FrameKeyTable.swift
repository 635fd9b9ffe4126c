/// A hash table from nonzero 64-bit keys (a connection, a direction and a sequence packed into one
/// word) to values: open addressing with linear probing and one multiply per lookup. The
/// statistics look a frame up for every frame of a capture, where a general dictionary's hashing
/// would cost more than the rest of their work, and hold up to 100,000 frames waiting for an ACK.
struct FrameKeyTable<Value> {
    /// 0 marks an empty slot.
    private var keys: [UInt64]
    private var values: [Value?]
    private(set) var count = 0
    private var shift: UInt64

    init() {
        keys = Array(repeating: 0, count: 16)
        values = Array(repeating: nil, count: 16)
        shift = 64 - 4
    }

    /// The key of a frame: its connection, its direction (0 or 1) and its sequence.
    static func key(connection: Int, direction: Int, sequence: UInt32) -> UInt64 {
        UInt64(truncatingIfNeeded: connection) << 33 | UInt64(direction & 1) << 32 | UInt64(sequence)
    }

    /// The parts of `key`.
    static func parts(of key: UInt64) -> (connection: Int, direction: Int, sequence: UInt32) {
        (Int(key >> 33), Int(key >> 32 & 1), UInt32(truncatingIfNeeded: key))
    }

    subscript(key: UInt64) -> Value? {
        guard let slot = find(key) else { return nil }
        return values[slot]
    }

    /// Sets the value of `key`, adding the key if it is new.
    mutating func set(_ value: Value, for key: UInt64) {
        precondition(key != 0, "a frame key is never 0")
        if let slot = find(key) {
            values[slot] = value
            return
        }
        // Up to seven eighths full: a table at the statistics' limit of frames waiting for an ACK
        // stays at half the memory a half-full one needs, and probes stay short below it.
        if (count + 1) * 8 > keys.count * 7 { grow() }
        var slot = home(key)
        while keys[slot] != 0 { slot = (slot + 1) & (keys.count - 1) }
        keys[slot] = key
        values[slot] = value
        count += 1
    }

    /// Changes the value of `key`, which starts as `initial` when the key is new.
    mutating func modify(_ key: UInt64, from initial: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        if let slot = find(key) {
            change(&values[slot]!)
            return
        }
        var value = initial()
        change(&value)
        set(value, for: key)
    }

    /// Removes `key`, returning its value if it was there.
    @discardableResult
    mutating func remove(_ key: UInt64) -> Value? {
        guard var hole = find(key) else { return nil }
        let removed = values[hole]
        keys[hole] = 0
        values[hole] = nil
        count -= 1
        // Later keys of the same run move back into the hole, so lookups never stop early.
        let mask = keys.count - 1
        var slot = (hole + 1) & mask
        while keys[slot] != 0 {
            let wanted = home(keys[slot])
            let isBetween = hole <= slot ? (hole < wanted && wanted <= slot) : (hole < wanted || wanted <= slot)
            if !isBetween {
                keys[hole] = keys[slot]
                values[hole] = values[slot]
                keys[slot] = 0
                values[slot] = nil
                hole = slot
            }
            slot = (slot + 1) & mask
        }
        return removed
    }

    /// Every key and value, in no particular order.
    var entries: [(key: UInt64, value: Value)] {
        var entries: [(key: UInt64, value: Value)] = []
        entries.reserveCapacity(count)
        forEach { entries.append(($0, $1)) }
        return entries
    }

    /// Shows `body` every key and value, in no particular order, without gathering them: a table
    /// of 100,000 frames waiting for an ACK would take megabytes more to list.
    func forEach(_ body: (UInt64, Value) -> Void) {
        for slot in keys.indices where keys[slot] != 0 {
            if let value = values[slot] { body(keys[slot], value) }
        }
    }

    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private func find(_ key: UInt64) -> Int? {
        var slot = home(key)
        while keys[slot] != 0 {
            if keys[slot] == key { return slot }
            slot = (slot + 1) & (keys.count - 1)
        }
        return nil
    }

    /// Doubles the table, moving each entry from the old arrays straight into the new ones.
    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldValues.count * 2)
        shift -= 1
        count = 0
        for slot in oldKeys.indices where oldKeys[slot] != 0 {
            if let value = oldValues[slot] { set(value, for: oldKeys[slot]) }
        }
    }
}

extension FrameKeyTable: Sendable where Value: Sendable {}
