/// A field inside received bytes, viewed in place: its tag, its value bytes and where it starts.
public struct TLVElement: Hashable, Sendable {
    /// The field's tag.
    public var tag: TLVTag
    /// The value bytes, sharing storage with the body they came from.
    public var value: ArraySlice<UInt8>
    /// Offset of the field's tag from the start of the body.
    public var offset: Int

    /// Whether the field is a container (tag 0xFFFF): its value is a sequence one level deeper.
    public var isContainer: Bool { tag == .container }

    /// The fields nested in a container's value.
    public var children: TLVSequence { TLVSequence(value, baseOffset: offset + TLVEncoder.fieldHeaderSize) }

    /// The value read with the tag's known layout.
    public var interpreted: TLVValue { TLVValue(tag: tag, value: value) }
}
