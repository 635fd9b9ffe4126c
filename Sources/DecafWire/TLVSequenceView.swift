/// The fields of a TLV sequence seen in place in raw memory, as `FrameView` hands bodies out: the
/// same walk as `TLVSequence`, for readers that must not copy a body to look at it. It is lenient
/// in the same way: iteration stops at the first field that does not fit.
public struct TLVSequenceView: Sequence {
    /// The sequence's bytes, borrowed.
    public let bytes: UnsafeRawBufferPointer
    /// Offset of `bytes` from the start of the body, so elements report body offsets.
    public let baseOffset: Int

    /// The sequence in `bytes`, whose first byte lies at `baseOffset` of the body.
    public init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self.baseOffset = baseOffset
    }

    /// A field in place: its tag, its value bytes and where its tag starts in the body.
    public struct Element {
        /// The field's tag.
        public var tag: TLVTag
        /// The value's bytes, in place.
        public var value: UnsafeRawBufferPointer
        /// The tag's offset from the body's start.
        public var offset: Int

        /// Whether the field is a container (tag 0xFFFF).
        public var isContainer: Bool { tag == .container }

        /// The fields nested in a container's value.
        public var children: TLVSequenceView { TLVSequenceView(value, baseOffset: offset + TLVEncoder.fieldHeaderSize) }

        /// Why the value does not fit its tag's layout (TLV-4), nil when it fits.
        public var misfit: String? { TLVValue.misfit(tag: tag, value: value) }
    }

    /// Walks the fields in order, stopping at the first that does not fit.
    public struct Iterator: IteratorProtocol {
        let bytes: UnsafeRawBufferPointer
        let baseOffset: Int
        var index = 0

        /// The next field, or nil at the end or where the bytes stop making a field.
        public mutating func next() -> Element? {
            let header = TLVEncoder.fieldHeaderSize
            guard bytes.count - index >= header else { return nil }
            let tag = bytes.bigEndianUInt16(at: index)
            let length = bytes.bigEndianUInt32(at: index + 2)
            guard UInt64(length) <= UInt64(bytes.count - index - header) else { return nil }
            let start = index
            index += header + Int(length)
            return Element(tag: TLVTag(tag), value: UnsafeRawBufferPointer(rebasing: bytes[(start + header)..<index]), offset: baseOffset + start)
        }
    }

    /// An iterator over the fields from the first.
    public func makeIterator() -> Iterator {
        Iterator(bytes: bytes, baseOffset: baseOffset)
    }
}
