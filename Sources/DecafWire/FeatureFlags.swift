/// The feature bits exchanged in the version handshake. Bits the brief does not define are never
/// echoed back (HS-2).
public struct FeatureFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The flags as the u16 of a version request or response.
    public var rawValue: UInt16
    /// The flags of this u16, unknown bits included.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001 BASIC: every implementation has it.
    public static let basic = FeatureFlags(rawValue: 0x0001)
    /// 0x0002 ENCRYPTION.
    public static let encryption = FeatureFlags(rawValue: 0x0002)
    /// 0x0004 COMPRESSION: zlib bodies may be sent once it is agreed.
    public static let compression = FeatureFlags(rawValue: 0x0004)
    /// 0x0008 READ_RECEIPT: READ_RECEIPT frames may be sent once it is agreed.
    public static let readReceipt = FeatureFlags(rawValue: 0x0008)
    /// 0x0010 GROUP_CHAT.
    public static let groupChat = FeatureFlags(rawValue: 0x0010)

    /// Every flag the brief defines, with its name, in bit order.
    public static let named: [(flag: FeatureFlags, name: String)] = [
        (.basic, "BASIC"), (.encryption, "ENCRYPTION"), (.compression, "COMPRESSION"),
        (.readReceipt, "READ_RECEIPT"), (.groupChat, "GROUP_CHAT"),
    ]

    /// The union of the defined flags.
    public static let known: FeatureFlags = [.basic, .encryption, .compression, .readReceipt, .groupChat]

    /// The names of the set flags, then `0xNNNN` for any undefined bits.
    public var names: [String] {
        var names = Self.named.filter { contains($0.flag) }.map(\.name)
        let unknown = rawValue & ~Self.known.rawValue
        if unknown != 0 { names.append(Hex.format(unknown, width: 4)) }
        return names
    }

    /// `0x000F [BASIC, ENCRYPTION, COMPRESSION, READ_RECEIPT]`: the number, then the known flags by name.
    public var description: String {
        "\(Hex.format(rawValue, width: 4)) [\(names.joined(separator: ", "))]"
    }
}
