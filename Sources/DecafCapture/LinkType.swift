/// The link-layer header type of captured packets (tcpdump.org's LINKTYPE_ values).
public struct LinkType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// BSD loopback: a 4-byte address family in the capturing host's byte order (macOS `lo0`).
    public static let null = LinkType(rawValue: 0)
    /// Ethernet II, optionally with 802.1Q/802.1ad tags (Linux `lo` and real interfaces).
    public static let ethernet = LinkType(rawValue: 1)
    /// IPv4 or IPv6 with no link header (DLT_RAW as some systems number it).
    public static let rawAlternative = LinkType(rawValue: 12)
    /// IPv4 or IPv6 with no link header.
    public static let raw = LinkType(rawValue: 101)
    /// OpenBSD loopback: like NULL, with the address family in network byte order.
    public static let loop = LinkType(rawValue: 108)
    /// Linux cooked capture v1 (`tcpdump -i any`).
    public static let linuxSLL = LinkType(rawValue: 113)
    /// IPv4 with no link header.
    public static let ipv4 = LinkType(rawValue: 228)
    /// IPv6 with no link header.
    public static let ipv6 = LinkType(rawValue: 229)
    /// Linux cooked capture v2 (`tcpdump -i any` since libpcap 1.10, tshark 3.x and later).
    public static let linuxSLL2 = LinkType(rawValue: 276)

    public var description: String {
        switch self {
        case .null: "NULL"
        case .ethernet: "ETHERNET"
        case .raw, .rawAlternative: "RAW"
        case .loop: "LOOP"
        case .linuxSLL: "LINUX_SLL"
        case .ipv4: "IPV4"
        case .ipv6: "IPV6"
        case .linuxSLL2: "LINUX_SLL2"
        default: "link type \(rawValue)"
        }
    }
}
