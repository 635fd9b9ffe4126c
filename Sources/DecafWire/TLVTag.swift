/// A TLV field's tag. Unknown tags are kept, never an error (TLV-4); known ones have a name and a
/// value layout.
public struct TLVTag: NamedWireValue, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let versionRequest = TLVTag(0x0001)
    public static let versionResponse = TLVTag(0x0002)
    public static let readReceipt = TLVTag(0x0010)
    public static let groupMessage = TLVTag(0x0011)
    public static let fileTransfer = TLVTag(0x0012)
    public static let userStatus = TLVTag(0x0020)
    public static let typingIndicator = TLVTag(0x0021)
    public static let error = TLVTag(0x00E0)
    public static let text = TLVTag(0x1001)
    public static let image = TLVTag(0x1002)
    public static let audio = TLVTag(0x1003)
    public static let video = TLVTag(0x1004)
    public static let file = TLVTag(0x1005)
    public static let location = TLVTag(0x1006)
    public static let custom = TLVTag(0x1007)
    /// The container tag: its value is itself a TLV sequence (TLV-2).
    public static let container = TLVTag(0xFFFF)

    /// The brief's name, or the tag's four hex digits when it has none.
    public var label: String { FieldRegistry.brief.label(of: self) }

    /// The brief's tags, in tag order.
    public static let known: [TLVTag] = FieldRegistry.brief.tags.map(\.tag)

    /// The brief's name for the tag (`FieldRegistry.brief`), nil for a tag it does not define.
    public var name: String? { FieldRegistry.brief.name(of: self) }

    /// How the value of a field with this tag is laid out, as the brief defines it.
    public var layout: TLVValueLayout { FieldRegistry.brief.layout(of: self) }

    public static func < (lhs: TLVTag, rhs: TLVTag) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `0x1001 TEXT`, or just the hex for an unknown tag.
    public var description: String { FieldRegistry.describe(self, name: name) }
}
