/// The fields of a TLV sequence, read in place without copying. It is lenient: iteration stops at
/// the first field that does not fit, so it is for walking bodies that `TLVValidator` accepted (or
/// for showing what precedes an error), never for judging them.
public struct TLVSequence: Sequence, Sendable {
    /// The sequence's bytes.
    public let bytes: ArraySlice<UInt8>
    /// Offset of `bytes` from the start of the body, so elements report body offsets.
    public let baseOffset: Int

    /// The sequence in `bytes`, whose first byte lies at `baseOffset` of the body (for offsets in errors).
    public init(_ bytes: ArraySlice<UInt8>, baseOffset: Int = 0) {
        self.bytes = bytes
        self.baseOffset = baseOffset
    }

    /// The sequence in `bytes`, a whole body.
    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Walks the fields in order, stopping at the first that does not fit.
    public struct Iterator: IteratorProtocol {
        let bytes: ArraySlice<UInt8>
        let baseOffset: Int
        var index: Int

        /// The next field, or nil at the end or where the bytes stop making a field.
        public mutating func next() -> TLVElement? {
            let header = TLVEncoder.fieldHeaderSize
            guard bytes.endIndex - index >= header else { return nil }
            let tag = UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            var length = 0
            for i in 2..<6 { length = length << 8 | Int(bytes[index + i]) }
            guard bytes.endIndex - index - header >= length else { return nil }
            let start = index
            index += header + length
            return TLVElement(
                tag: TLVTag(tag),
                value: bytes[(start + header)..<index],
                offset: baseOffset + (start - bytes.startIndex)
            )
        }
    }

    /// An iterator over the fields from the first.
    public func makeIterator() -> Iterator {
        Iterator(bytes: bytes, baseOffset: baseOffset, index: bytes.startIndex)
    }
}
