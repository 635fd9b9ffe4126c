/// A map from a frame's 64-bit key (its session and sequence, `DirectionLedger.key`) to what a
/// rule keeps of it: the monitor's per-frame bookkeeping, looked up several times a frame. Open
/// addressing with linear probing over a power-of-two table at most three quarters full (as `Dictionary`), where `Dictionary`
/// runs SipHash per lookup: the monitor's tables cost a third of its time before. The hash keeps
/// a sender's consecutive sequences in consecutive slots (the counter is the low bits; the
/// session and category, multiplied, move the start), so following a connection touches a few
/// cache lines, not a line a frame.
///
/// Every table the monitor keeps is bounded (`DirectionLedger.limit` entries), and so is this
/// one's table: a capture whose keys collide on purpose costs at most the table's size in probes
/// a lookup, never more memory. Tables start small and double as they fill, as a dictionary does.
struct KeyTable<Value> {
    /// The keys and values, by slot, and which slots hold one (told apart without copying a
    /// value, which would retain what it holds).
    private var keys: [UInt64] = []
    private var values: [Value?] = []
    private var occupied: [Bool] = []
    /// How many slots hold a value.
    private(set) var count = 0
    /// The slots less one: the hash's low bits index the table.
    private var mask = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    /// The slot `key` hashes to.
    private func home(of key: UInt64) -> Int {
        let counter = UInt32(truncatingIfNeeded: key), sessionAndCategory = UInt32(truncatingIfNeeded: key >> 24)
        return Int(counter &+ sessionAndCategory &* 0x9E37_79B9) & mask
    }

    /// The slot that holds `key`, or the empty slot where it would go.
    private func slot(of key: UInt64) -> (index: Int, found: Bool) {
        var index = home(of: key)
        while occupied[index] {
            if keys[index] == key { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    subscript(key: UInt64) -> Value? {
        get {
            guard count > 0 else { return nil }
            let (index, found) = slot(of: key)
            return found ? values[index] : nil
        }
        set {
            guard let newValue else {
                removeValue(forKey: key)
                return
            }
            if keys.isEmpty || (count + 1) * 4 > keys.count * 3 { grow() }
            let (index, found) = slot(of: key)
            if !found {
                keys[index] = key
                occupied[index] = true
                count += 1
            }
            assert(count * 4 <= keys.count * 3, "a key table is at most three quarters full")
            values[index] = newValue
        }
    }

    func contains(_ key: UInt64) -> Bool {
        self[key] != nil
    }

    /// Removes `key`'s value and returns it. The slots after it that hash at or before its slot
    /// move back into the gap (backward-shift deletion), so every lookup still finds its key.
    @discardableResult
    mutating func removeValue(forKey key: UInt64) -> Value? {
        guard count > 0 else { return nil }
        var (gap, found) = slot(of: key)
        guard found else { return nil }
        let removed = values[gap]
        values[gap] = nil
        occupied[gap] = false
        count -= 1
        var next = (gap + 1) & mask
        while occupied[next] {
            // The entry at `next` may fill the gap when the gap lies on its probe path.
            let distanceToNext = (next - home(of: keys[next])) & mask
            let distanceToGap = (next - gap) & mask
            if distanceToGap <= distanceToNext {
                keys[gap] = keys[next]
                values.swapAt(gap, next)
                occupied[gap] = true
                occupied[next] = false
                gap = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// Empties the table, keeping its slots.
    mutating func removeAll() {
        guard count > 0 else { return }
        for index in values.indices where occupied[index] {
            values[index] = nil
            occupied[index] = false
        }
        count = 0
    }

    /// Removes the entries whose value `isRemoved` accepts.
    mutating func removeAll(where isRemoved: (Value) -> Bool) {
        var kept = KeyTable()
        kept.makeSlots(keys.count)
        for index in values.indices where occupied[index] {
            if let value = values[index], !isRemoved(value) { kept[keys[index]] = value }
        }
        self = kept
    }

    /// The values, in no particular order.
    var allValues: [Value] {
        values.compactMap { $0 }
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values, oldOccupied = occupied
        makeSlots(max(16, keys.count * 2))
        for index in oldValues.indices where oldOccupied[index] {
            self[oldKeys[index]] = oldValues[index]
        }
    }

    /// Empty slots, a power of two of them.
    private mutating func makeSlots(_ slots: Int) {
        keys = Array(repeating: 0, count: slots)
        values = Array(repeating: nil, count: slots)
        occupied = Array(repeating: false, count: slots)
        mask = slots - 1
        count = 0
    }
}

extension KeyTable: Sendable where Value: Sendable {}
