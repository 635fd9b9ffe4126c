/// A frame's sequence: category in the high 8 bits, a per-category counter in the low 24 (SEQ-1).
public struct SequenceNumber: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The sequence as it travels: category << 24 | counter.
    public var rawValue: UInt32
    /// The sequence of this u32.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The largest counter; the next one after it is 0.
    public static let maxCounter: UInt32 = 0xFF_FFFF

    /// A sequence from its parts; counter bits above the low 24 are dropped.
    public init(category: SequenceCategory, counter: UInt32) {
        rawValue = UInt32(category.rawValue) << 24 | (counter & Self.maxCounter)
    }

    /// The category: the high 8 bits.
    public var category: SequenceCategory { SequenceCategory(rawValue: UInt8(rawValue >> 24)) }
    /// The counter: the low 24 bits, wrapping from 0xFFFFFF to 0 (SEQ-1).
    public var counter: UInt32 { rawValue & Self.maxCounter }

    /// The sequence a sender uses for its next frame in the same category: counter + 1, wrapping
    /// 0xFFFFFF to 0 without touching the category.
    public var next: SequenceNumber {
        SequenceNumber(category: category, counter: counter == Self.maxCounter ? 0 : counter + 1)
    }

    /// `NORMAL/1`: the category, then the counter.
    public var description: String { "\(category)/\(counter)" }
}
