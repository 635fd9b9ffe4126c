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
    public var label: String { name ?? Hex.format(rawValue, width: 4) }

    public static let known: [TLVTag] = [
        .versionRequest, .versionResponse, .readReceipt, .groupMessage, .fileTransfer, .userStatus,
        .typingIndicator, .error, .text, .image, .audio, .video, .file, .location, .custom, .container,
    ]

    public var name: String? {
        switch rawValue {
        case 0x0001: "VERSION_REQUEST"
        case 0x0002: "VERSION_RESPONSE"
        case 0x0010: "READ_RECEIPT"
        case 0x0011: "GROUP_MESSAGE"
        case 0x0012: "FILE_TRANSFER"
        case 0x0020: "USER_STATUS"
        case 0x0021: "TYPING_INDICATOR"
        case 0x00E0: "ERROR"
        case 0x1001: "TEXT"
        case 0x1002: "IMAGE"
        case 0x1003: "AUDIO"
        case 0x1004: "VIDEO"
        case 0x1005: "FILE"
        case 0x1006: "LOCATION"
        case 0x1007: "CUSTOM"
        case 0xFFFF: "CONTAINER"
        default: nil
        }
    }

    /// How the value of a field with this tag is laid out.
    public var layout: TLVValueLayout {
        switch self {
        case .versionRequest, .versionResponse: .versionOffer
        case .readReceipt: .sequence
        case .error: .errorReport
        case .text: .utf8
        case .container: .container
        default: .bytes
        }
    }

    public static func < (lhs: TLVTag, rhs: TLVTag) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `0x1001 TEXT`, or just the hex for an unknown tag.
    public var description: String {
        let hex = Hex.format(rawValue, width: 4)
        return name.map { "\(hex) \($0)" } ?? hex
    }
}
