/// What the frame model knows of a TLV tag: the name every output shows for it and how its value
/// is laid out (TLV-4).
public struct TLVTagDefinition: Hashable, Sendable {
    /// The tag defined.
    public var tag: TLVTag
    /// Its name, as outputs show it: `TEXT`.
    public var name: String
    /// How its value is read.
    public var layout: TLVValueLayout

    /// `tag` named `name`, its value read as `layout`.
    public init(_ tag: TLVTag, _ name: String, _ layout: TLVValueLayout = .bytes) {
        self.tag = tag
        self.name = name
        self.layout = layout
    }
}
