/// The fields of a TLV sequence seen in place in raw memory, as `FrameView` hands bodies out: the
/// same walk as `TLVSequence`, for readers that must not copy a body to look at it. It is lenient
/// in the same way: iteration stops at the first field that does not fit.
public struct TLVSequenceView: Sequence {
    public let bytes: UnsafeRawBufferPointer
    /// Offset of `bytes` from the start of the body, so elements report body offsets.
    public let baseOffset: Int

    public init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self.baseOffset = baseOffset
    }

    /// A field in place: its tag, its value bytes and where its tag starts in the body.
    public struct Element {
        public var tag: TLVTag
        public var value: UnsafeRawBufferPointer
        public var offset: Int

        public var isContainer: Bool { tag == .container }

        /// The fields nested in a container's value.
        public var children: TLVSequenceView { TLVSequenceView(value, baseOffset: offset + TLVEncoder.fieldHeaderSize) }

        /// Why the value does not fit its tag's layout (TLV-4), nil when it fits.
        public var misfit: String? { TLVValue.misfit(tag: tag, value: value) }
    }

    public struct Iterator: IteratorProtocol {
        let bytes: UnsafeRawBufferPointer
        let baseOffset: Int
        var index = 0

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

    public func makeIterator() -> Iterator {
        Iterator(bytes: bytes, baseOffset: baseOffset)
    }
}
