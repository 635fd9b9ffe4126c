/// What a campaign has seen of an instrumented target's coverage, by AFL++'s rules: each byte of
/// the target's map counts the hits of one edge in one input; a count is taken by its bucket (1, 2,
/// 3, 4–7, 8–15, 16–31, 32–127, 128 and more), and an input is new when it hits an edge no input
/// hit before (a new edge) or an edge in a bucket it never reached (a new count). The "virgin"
/// bits of AFL's `has_new_bits`: one byte per edge, a bit per bucket not yet seen. Pure: the map
/// is read elsewhere (`AFLSharedMemory`), as a trace.
public struct CoverageMap: Sendable {
    /// What an input's trace adds to what was seen.
    public enum Novelty: Comparable, Sendable {
        case nothing
        /// An edge seen before, in a bucket never reached.
        case newCount
        /// An edge never hit before.
        case newEdge
    }

    /// One bit per bucket not yet seen, per edge: all set at first (AFL's virgin map).
    private var virgin: [UInt8]
    /// Edges hit by some input so far.
    public private(set) var edges = 0

    /// A map of `size` edges, none seen.
    public init(size: Int) {
        virgin = [UInt8](repeating: 0xFF, count: max(size, 0))
    }

    /// The edges the map holds.
    public var size: Int { virgin.count }

    /// Takes `trace` (an input's edges, each `index << 8 | bucket`, as `trace(of:)` gives them)
    /// as seen; what it added.
    public mutating func merge(_ trace: [UInt32]) -> Novelty {
        var novelty = Novelty.nothing
        for hit in trace {
            let index = Int(hit >> 8), bucket = UInt8(truncatingIfNeeded: hit)
            guard index < virgin.count, virgin[index] & bucket != 0 else { continue }
            if virgin[index] == 0xFF {
                novelty = .newEdge
                edges += 1
            } else if novelty == .nothing {
                novelty = .newCount
            }
            virgin[index] &= ~bucket
        }
        return novelty
    }

    /// The trace of a map of hit counts: for each edge hit, `index << 8 | bucket`, in index order.
    /// Reads eight bytes at a time and passes over the zeros, which most of a map is.
    public static func trace(of counts: UnsafeRawBufferPointer) -> [UInt32] {
        var trace: [UInt32] = []
        let words = counts.count / 8
        for word in 0..<words where counts.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self) != 0 {
            for index in (word * 8)..<(word * 8 + 8) where counts[index] != 0 {
                trace.append(UInt32(index) << 8 | UInt32(bucket(counts[index])))
            }
        }
        for index in (words * 8)..<counts.count where counts[index] != 0 {
            trace.append(UInt32(index) << 8 | UInt32(bucket(counts[index])))
        }
        return trace
    }

    /// AFL's bucket of a hit count, as one bit: 1, 2, 3, 4–7, 8–15, 16–31, 32–127, 128–255.
    static func bucket(_ count: UInt8) -> UInt8 {
        switch count {
        case 0: 0
        case 1: 1
        case 2: 2
        case 3: 4
        case 4...7: 8
        case 8...15: 16
        case 16...31: 32
        case 32...127: 64
        default: 128
        }
    }
}
