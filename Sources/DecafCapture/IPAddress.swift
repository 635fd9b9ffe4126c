/// An IPv4 or IPv6 address as captured.
public struct IPAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    public var bytes: [UInt8]

    public init(_ bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    public var isIPv6: Bool { bytes.count == 16 }

    /// Dotted quad for IPv4; RFC 5952 text (longest zero run as `::`) for IPv6.
    public var description: String {
        guard isIPv6 else { return dottedQuad }
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        var best = (start: -1, length: 0)
        var run = (start: -1, length: 0)
        for (index, group) in groups.enumerated() {
            if group == 0 {
                run = run.start < 0 ? (index, 1) : (run.start, run.length + 1)
                if run.length > best.length { best = run }
            } else {
                run = (-1, 0)
            }
        }
        let text = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return text.joined(separator: ":") }
        let head = text[..<best.start].joined(separator: ":")
        let tail = text[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }

    /// The bytes in decimal joined by dots, written digit by digit (records name their
    /// connection's endpoints once per frame).
    private var dottedQuad: String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 4)
        for byte in bytes {
            if !text.isEmpty { text.append(UInt8(ascii: ".")) }
            if byte >= 100 { text.append(UInt8(ascii: "0") + byte / 100) }
            if byte >= 10 { text.append(UInt8(ascii: "0") + byte / 10 % 10) }
            text.append(UInt8(ascii: "0") + byte % 10)
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
