/// A TLV field's tag. Unknown tags are kept, never an error (TLV-4); known ones have a name and a
/// value layout.
public struct TLVTag: NamedWireValue, Comparable {
    /// The tag as it travels, a big-endian u16.
    public var rawValue: UInt16
    /// The tag of this u16, known or not (TLV-4).
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The tag of this u16.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001 VERSION_REQUEST: the version and features a client offers.
    @inlinable public static var versionRequest: TLVTag { TLVTag(0x0001) }
    /// 0x0002 VERSION_RESPONSE: the version and features the server agrees.
    @inlinable public static var versionResponse: TLVTag { TLVTag(0x0002) }
    /// 0x0010 READ_RECEIPT: the sequence of the DATA frame read.
    @inlinable public static var readReceipt: TLVTag { TLVTag(0x0010) }
    /// 0x0011 GROUP_MESSAGE.
    @inlinable public static var groupMessage: TLVTag { TLVTag(0x0011) }
    /// 0x0012 FILE_TRANSFER.
    @inlinable public static var fileTransfer: TLVTag { TLVTag(0x0012) }
    /// 0x0020 USER_STATUS.
    @inlinable public static var userStatus: TLVTag { TLVTag(0x0020) }
    /// 0x0021 TYPING_INDICATOR.
    @inlinable public static var typingIndicator: TLVTag { TLVTag(0x0021) }
    /// 0x00E0 ERROR: a section 8 code and a reason.
    @inlinable public static var error: TLVTag { TLVTag(0x00E0) }
    /// 0x1001 TEXT: UTF-8.
    @inlinable public static var text: TLVTag { TLVTag(0x1001) }
    /// 0x1002 IMAGE.
    @inlinable public static var image: TLVTag { TLVTag(0x1002) }
    /// 0x1003 AUDIO.
    @inlinable public static var audio: TLVTag { TLVTag(0x1003) }
    /// 0x1004 VIDEO.
    @inlinable public static var video: TLVTag { TLVTag(0x1004) }
    /// 0x1005 FILE.
    @inlinable public static var file: TLVTag { TLVTag(0x1005) }
    /// 0x1006 LOCATION.
    @inlinable public static var location: TLVTag { TLVTag(0x1006) }
    /// 0x1007 CUSTOM.
    @inlinable public static var custom: TLVTag { TLVTag(0x1007) }
    /// The container tag: its value is itself a TLV sequence (TLV-2).
    @inlinable public static var container: TLVTag { TLVTag(0xFFFF) }

    /// The brief's name, or the tag's four hex digits when it has none.
    public var label: String { FieldRegistry.brief.label(of: self) }

    /// The brief's tags, in tag order.
    public static let known: [TLVTag] = FieldRegistry.brief.tags.map(\.tag)

    /// The brief's name for the tag (`FieldRegistry.brief`), nil for a tag it does not define.
    public var name: String? { FieldRegistry.brief.name(of: self) }

    /// How the value of a field with this tag is laid out, as the brief defines it.
    public var layout: TLVValueLayout { FieldRegistry.brief.layout(of: self) }

    /// Tags in numeric order.
    public static func < (lhs: TLVTag, rhs: TLVTag) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `0x1001 TEXT`, or just the hex for an unknown tag.
    public var description: String { FieldRegistry.describe(self, name: name) }
}
