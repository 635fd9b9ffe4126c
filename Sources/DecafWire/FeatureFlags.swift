/// The feature bits exchanged in the version handshake. Bits the brief does not define are never
/// echoed back (HS-2).
public struct FeatureFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let basic = FeatureFlags(rawValue: 0x0001)
    public static let encryption = FeatureFlags(rawValue: 0x0002)
    public static let compression = FeatureFlags(rawValue: 0x0004)
    public static let readReceipt = FeatureFlags(rawValue: 0x0008)
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

    public var description: String {
        "\(Hex.format(rawValue, width: 4)) [\(names.joined(separator: ", "))]"
    }
}
