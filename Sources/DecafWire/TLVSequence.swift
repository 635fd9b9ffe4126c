/// The fields of a TLV sequence, read in place without copying. It is lenient: iteration stops at
/// the first field that does not fit, so it is for walking bodies that `TLVValidator` accepted (or
/// for showing what precedes an error), never for judging them.
public struct TLVSequence: Sequence, Sendable {
    public let bytes: ArraySlice<UInt8>
    /// Offset of `bytes` from the start of the body, so elements report body offsets.
    public let baseOffset: Int

    public init(_ bytes: ArraySlice<UInt8>, baseOffset: Int = 0) {
        self.bytes = bytes
        self.baseOffset = baseOffset
    }

    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    public struct Iterator: IteratorProtocol {
        let bytes: ArraySlice<UInt8>
        let baseOffset: Int
        var index: Int

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

    public func makeIterator() -> Iterator {
        Iterator(bytes: bytes, baseOffset: baseOffset, index: bytes.startIndex)
    }
}
