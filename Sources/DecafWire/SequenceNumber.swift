/// A frame's sequence: category in the high 8 bits, a per-category counter in the low 24 (SEQ-1).
public struct SequenceNumber: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The largest counter; the next one after it is 0.
    public static let maxCounter: UInt32 = 0xFF_FFFF

    /// A sequence from its parts; counter bits above the low 24 are dropped.
    public init(category: SequenceCategory, counter: UInt32) {
        rawValue = UInt32(category.rawValue) << 24 | (counter & Self.maxCounter)
    }

    public var category: SequenceCategory { SequenceCategory(rawValue: UInt8(rawValue >> 24)) }
    public var counter: UInt32 { rawValue & Self.maxCounter }

    /// The sequence a sender uses for its next frame in the same category: counter + 1, wrapping
    /// 0xFFFFFF to 0 without touching the category.
    public var next: SequenceNumber {
        SequenceNumber(category: category, counter: counter == Self.maxCounter ? 0 : counter + 1)
    }

    public var description: String { "\(category)/\(counter)" }
}
