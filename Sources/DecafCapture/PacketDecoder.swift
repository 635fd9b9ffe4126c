/// Takes the TCP segment out of a captured packet: link layer, then IPv4 or IPv6 (extension
/// headers skipped), then TCP, with the payload bounded by the IP length so link padding is not
/// mistaken for data.
public enum PacketDecoder {
    /// Why a packet holds no TCP segment Decaf can use.
    public enum Skip: Error, Sendable, Hashable {
        case unsupportedLinkType(LinkType)
        case notIP
        case notTCP
        case fragment
        case malformed(String)

        /// The reason without its details, for counting skipped packets in bounded memory.
        public var kind: String {
            switch self {
            case .unsupportedLinkType: "unsupported link type"
            case .notIP: "not IP"
            case .notTCP: "not TCP"
            case .fragment: "IP fragment"
            case .malformed: "malformed"
            }
        }
    }

    /// The packet's TCP segment, or why there is none. The segment's payload lies in the packet's
    /// bytes, valid as long as they are.
    public static func segment(of packet: CapturedPacket) throws(Skip) -> TCPSegment {
        try ip(networkLayer(packet.bytes, linkType: packet.linkType))
    }

    /// The IP packet inside a link-layer frame.
    static func networkLayer(_ bytes: UnsafeRawBufferPointer, linkType: LinkType) throws(Skip) -> UnsafeRawBufferPointer {
        switch linkType {
        case .ethernet:
            var offset = 12
            guard bytes.count >= 14 else { throw .malformed("Ethernet header cut short") }
            var etherType = bytes.networkUInt16(at: offset)
            while etherType == 0x8100 || etherType == 0x88A8 || etherType == 0x9100 {
                offset += 4
                guard bytes.count >= offset + 2 else { throw .malformed("802.1Q tag cut short") }
                etherType = bytes.networkUInt16(at: offset)
            }
            guard etherType == 0x0800 || etherType == 0x86DD else { throw .notIP }
            return UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)...])
        case .linuxSLL:
            guard bytes.count >= 16 else { throw .malformed("Linux cooked header cut short") }
            return try ipOnly(UnsafeRawBufferPointer(rebasing: bytes[16...]), protocol: bytes.networkUInt16(at: 14))
        case .linuxSLL2:
            guard bytes.count >= 20 else { throw .malformed("Linux cooked v2 header cut short") }
            return try ipOnly(UnsafeRawBufferPointer(rebasing: bytes[20...]), protocol: bytes.networkUInt16(at: 0))
        case .null, .loop:
            guard bytes.count >= 4 else { throw .malformed("loopback header cut short") }
            let family = linkType == .loop ? ByteOrder.bigEndian.uint32(bytes, at: 0) : hostFamily(bytes)
            guard [2, 24, 28, 30].contains(family) else { throw .notIP }
            return UnsafeRawBufferPointer(rebasing: bytes[4...])
        case .raw, .rawAlternative, .ipv4, .ipv6:
            return bytes
        default:
            throw .unsupportedLinkType(linkType)
        }
    }

    /// NULL's address family is in the capturing host's byte order: read it whichever way gives
    /// a family (AF_INET is 2 everywhere; AF_INET6 is 24, 28 or 30 depending on the system).
    private static func hostFamily(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let little = ByteOrder.littleEndian.uint32(bytes, at: 0)
        return little <= 0xFFFF ? little : ByteOrder.bigEndian.uint32(bytes, at: 0)
    }

    private static func ipOnly(_ bytes: UnsafeRawBufferPointer, protocol etherType: UInt16) throws(Skip) -> UnsafeRawBufferPointer {
        guard etherType == 0x0800 || etherType == 0x86DD else { throw .notIP }
        return bytes
    }

    static func ip(_ bytes: UnsafeRawBufferPointer) throws(Skip) -> TCPSegment {
        guard let first = bytes.first else { throw .malformed("empty IP packet") }
        switch first >> 4 {
        case 4:
            guard bytes.count >= 20 else { throw .malformed("IPv4 header cut short") }
            let headerLength = Int(first & 0x0F) * 4
            let totalLength = Int(bytes.networkUInt16(at: 2))
            guard headerLength >= 20, totalLength >= headerLength, bytes.count >= headerLength else {
                throw .malformed("IPv4 header length \(headerLength), total length \(totalLength)")
            }
            guard bytes.networkUInt16(at: 6) & 0x3FFF == 0 else { throw .fragment }
            guard bytes[9] == 6 else { throw .notTCP }
            let source = IPAddress(ipv4: bytes, at: 12)
            let destination = IPAddress(ipv4: bytes, at: 16)
            return try tcp(bytes, from: headerLength, to: totalLength, source: source, destination: destination)
        case 6:
            guard bytes.count >= 40 else { throw .malformed("IPv6 header cut short") }
            let end = 40 + Int(bytes.networkUInt16(at: 4))
            var next = bytes[6]
            var offset = 40
            while next != 6 {
                guard [0, 43, 44, 60, 51].contains(next) else { throw .notTCP }
                guard bytes.count >= offset + 8 else { throw .malformed("IPv6 extension header cut short") }
                let header = UnsafeRawBufferPointer(rebasing: bytes[offset...])
                if next == 44 {
                    guard header.networkUInt16(at: 2) & 0xFFF9 == 0 else { throw .fragment }
                }
                let length = switch next {
                case 44: 8
                case 51: (Int(header[1]) + 2) * 4
                default: (Int(header[1]) + 1) * 8
                }
                next = header[0]
                offset += length
            }
            let source = IPAddress(ipv6: bytes, at: 8)
            let destination = IPAddress(ipv6: bytes, at: 24)
            return try tcp(bytes, from: offset, to: end, source: source, destination: destination)
        default:
            throw .notIP
        }
    }

    /// The TCP segment between `start` and `end` (the IP length) of `packet`, of which only
    /// `packet.count` bytes were captured.
    private static func tcp(_ packet: UnsafeRawBufferPointer, from start: Int, to end: Int, source: IPAddress, destination: IPAddress) throws(Skip) -> TCPSegment {
        guard packet.count >= start + 20 else { throw .malformed("TCP header cut short") }
        let header = UnsafeRawBufferPointer(rebasing: packet[start...])
        let headerLength = Int(header[12] >> 4) * 4
        guard headerLength >= 20, start + headerLength <= end, packet.count >= start + headerLength else {
            throw .malformed("TCP data offset \(headerLength) does not fit the packet")
        }
        let captured = min(end, packet.count)
        return TCPSegment(
            source: TCPEndpoint(address: source, port: header.networkUInt16(at: 0)),
            destination: TCPEndpoint(address: destination, port: header.networkUInt16(at: 2)),
            sequence: header.networkUInt32(at: 4),
            acknowledgment: header.networkUInt32(at: 8),
            flags: TCPSegment.Flags(rawValue: header[13]),
            payload: UnsafeRawBufferPointer(rebasing: packet[(start + headerLength)..<captured]),
            missingPayload: max(0, end - captured)
        )
    }
}
