/// An IPv4 or IPv6 address as captured. Held in two words rather than an array, so a packet's
/// endpoints cost no allocation and a connection's key hashes and compares in a few instructions.
public struct IPAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The address bytes in network order, right-aligned: an IPv4 address is the low 32 bits of `low`.
    private var high: UInt64
    private var low: UInt64
    public let isIPv6: Bool

    /// The address from its 4 (IPv4) or 16 (IPv6) bytes in network order.
    public init(_ bytes: some Sequence<UInt8>) {
        let bytes = Array(bytes)
        precondition(bytes.count == 4 || bytes.count == 16, "an IP address has 4 or 16 bytes, not \(bytes.count)")
        isIPv6 = bytes.count == 16
        high = bytes.dropLast(8).reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes.suffix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The IPv4 address at `offset` of `packet` (4 bytes, which the caller has counted).
    @inline(__always)
    init(ipv4 packet: UnsafeRawBufferPointer, at offset: Int) {
        high = 0
        low = UInt64(UInt32(bigEndian: packet.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        isIPv6 = false
    }

    /// The IPv6 address at `offset` of `packet` (16 bytes, which the caller has counted).
    @inline(__always)
    init(ipv6 packet: UnsafeRawBufferPointer, at offset: Int) {
        high = UInt64(bigEndian: packet.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        low = UInt64(bigEndian: packet.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        isIPv6 = true
    }

    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public var bytes: [UInt8] {
        let words = isIPv6 ? [high, low] : [low << 32]
        let all = words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * $0)) } }
        return Array(all.prefix(isIPv6 ? 16 : 4))
    }

    /// Dotted quad for IPv4; RFC 5952 text (longest zero run as `::`) for IPv6.
    public var description: String {
        var text: [UInt8] = []
        write(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the address as `description` writes it, digit by digit: records name their
    /// connection's endpoints once per frame.
    public func write(to text: inout [UInt8]) {
        guard isIPv6 else {
            for shift in stride(from: 24, through: 0, by: -8) {
                if shift != 24 { text.append(UInt8(ascii: ".")) }
                let byte = UInt8(truncatingIfNeeded: low >> UInt64(shift))
                if byte >= 100 { text.append(UInt8(ascii: "0") + byte / 100) }
                if byte >= 10 { text.append(UInt8(ascii: "0") + byte / 10 % 10) }
                text.append(UInt8(ascii: "0") + byte % 10)
            }
            return
        }
        let groups = (0..<8).map { UInt16(truncatingIfNeeded: ($0 < 4 ? high : low) >> UInt64(48 - 16 * ($0 % 4))) }
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
        let hex = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else {
            text += hex.joined(separator: ":").utf8
            return
        }
        text += hex[..<best.start].joined(separator: ":").utf8
        text += "::".utf8
        text += hex[(best.start + best.length)...].joined(separator: ":").utf8
    }

    public static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        (lhs.isIPv6 ? 1 : 0, lhs.high, lhs.low) < (rhs.isIPv6 ? 1 : 0, rhs.high, rhs.low)
    }
}
