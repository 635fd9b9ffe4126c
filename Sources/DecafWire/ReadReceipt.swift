/// READ_RECEIPT TLV: the sequence of the DATA frame that was read (EX-4).
public struct ReadReceipt: Hashable, Sendable {
    /// The sequence of the DATA frame that was read.
    public var sequence: SequenceNumber

    /// A receipt for the DATA frame of `sequence`.
    public init(sequence: SequenceNumber) { self.sequence = sequence }

    /// The receipt in `value`, or nil unless `value` is exactly 4 bytes.
    public init?(value: some Collection<UInt8>) {
        guard value.count == 4 else { return nil }
        sequence = SequenceNumber(rawValue: value.reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// The READ_RECEIPT TLV's value: the sequence as a big-endian u32.
    public var value: [UInt8] {
        var out: [UInt8] = []
        out.appendBigEndian(sequence.rawValue)
        return out
    }

    /// The receipt as a READ_RECEIPT field, ready for a body.
    public var field: TLVField { TLVField(tag: .readReceipt, bytes: value) }
}
