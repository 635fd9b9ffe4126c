/// What the frame model knows of a TLV tag: the name every output shows for it and how its value
/// is laid out (TLV-4).
public struct TLVTagDefinition: Hashable, Sendable {
    public var tag: TLVTag
    public var name: String
    public var layout: TLVValueLayout

    public init(_ tag: TLVTag, _ name: String, _ layout: TLVValueLayout = .bytes) {
        self.tag = tag
        self.name = name
        self.layout = layout
    }
}
