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
    /// By default a walk enters containers.
    public var descendsIntoContainers: Bool { true }
    /// By default, bytes that are not a frame are passed over.
    public mutating func visitNotAFrame(_ range: Range<Int>) {}
    /// By default, a header field is passed over.
    public mutating func visitHeaderField(_ field: HeaderFieldItem) {}
    /// By default, a header cut short is passed over.
    public mutating func visitIncompleteHeader(_ range: Range<Int>) {}
    /// By default, the body as a whole is passed over.
    public mutating func visitBody(_ body: BodyItem) {}
    /// By default, entering a field does nothing.
    public mutating func enterTLVField(_ field: TLVFieldItem) {}
    /// By default, leaving a field does nothing.
    public mutating func exitTLVField(_ field: TLVFieldItem) {}
    /// By default, bytes left unparsed are passed over.
    public mutating func visitUnparsed(_ unparsed: UnparsedItem) {}
    /// By default, bytes after the frame are passed over.
    public mutating func visitTrailing(_ range: Range<Int>) {}
}
