/// An output of the frame model: it is shown each field of a frame once, in the order of the
/// bytes, by `FrameFields.walk`, and keeps what it needs (a line, a JSON member, a count). Every
/// method does nothing unless the output implements it.
public protocol FrameFieldVisitor {
    /// Whether the walk goes into the fields of containers; an output of top-level tags says no.
    var descendsIntoContainers: Bool { get }
    /// Bytes without the magic: not a frame, so no field is read from them.
    mutating func visitNotAFrame(_ range: Range<Int>)
    /// A header field that arrived whole.
    mutating func visitHeaderField(_ field: HeaderFieldItem)
    /// Header bytes after the last whole field of a header cut short.
    mutating func visitIncompleteHeader(_ range: Range<Int>)
    /// The body, after the whole header.
    mutating func visitBody(_ body: BodyItem)
    /// A TLV field, before the fields it holds.
    mutating func enterTLVField(_ field: TLVFieldItem)
    /// The same TLV field, after the fields it holds.
    mutating func exitTLVField(_ field: TLVFieldItem)
    /// Bytes at the end of a TLV sequence that no field explains.
    mutating func visitUnparsed(_ unparsed: UnparsedItem)
    /// Bytes after the end of the body the header declares.
    mutating func visitTrailing(_ range: Range<Int>)
}

extension FrameFieldVisitor {
    public var descendsIntoContainers: Bool { true }
    public mutating func visitNotAFrame(_ range: Range<Int>) {}
    public mutating func visitHeaderField(_ field: HeaderFieldItem) {}
    public mutating func visitIncompleteHeader(_ range: Range<Int>) {}
    public mutating func visitBody(_ body: BodyItem) {}
    public mutating func enterTLVField(_ field: TLVFieldItem) {}
    public mutating func exitTLVField(_ field: TLVFieldItem) {}
    public mutating func visitUnparsed(_ unparsed: UnparsedItem) {}
    public mutating func visitTrailing(_ range: Range<Int>) {}
}
