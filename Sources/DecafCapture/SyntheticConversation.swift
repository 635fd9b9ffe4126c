/// A TCP conversation made up packet by packet, for sample captures and `decaf build --pcap`:
/// the three-way handshake, payload in both directions with correct sequence and
/// acknowledgement numbers, and on request split, coalesced, reordered, retransmitted or
/// truncated segments, framed in any link type Decaf reads.
public struct SyntheticConversation {
    /// The ends every made-up conversation uses unless told otherwise: 10.0.0.1:50000 talking to
    /// 10.0.0.2:7447, the port Decaf's samples and Wireshark plugin take for the protocol.
    public static let defaultClient = TCPEndpoint(address: IPAddress([10, 0, 0, 1]), port: 50_000)
    public static let defaultServer = TCPEndpoint(address: IPAddress([10, 0, 0, 2]), port: 7447)

    public let client: TCPEndpoint
    public let server: TCPEndpoint
    public let linkType: LinkType
    /// 802.1Q VLAN id to tag Ethernet frames with, if any.
    public var vlan: UInt16?
    public private(set) var records: [CaptureRecord] = []

    private var time: CaptureTime
    private var nextSequence: PerDirection<UInt32>
    /// The time between packets.
    private let step: UInt32 = 1_000_000

    /// A conversation starting at `start`, with the given initial sequence numbers.
    public init(client: TCPEndpoint = defaultClient, server: TCPEndpoint = defaultServer, linkType: LinkType = .ethernet, start: CaptureTime,
                clientISN: UInt32 = 0x1000_0000, serverISN: UInt32 = 0x2000_0000) {
        self.client = client
        self.server = server
        self.linkType = linkType
        time = start
        nextSequence = PerDirection(clientToServer: clientISN, serverToClient: serverISN)
    }

    /// SYN, SYN-ACK, ACK.
    public mutating func handshake() {
        emit(.clientToServer, flags: .syn, sequence: nextSequence.clientToServer, payload: [])
        nextSequence.clientToServer &+= 1
        emit(.serverToClient, flags: [.syn, .ack], sequence: nextSequence.serverToClient, payload: [])
        nextSequence.serverToClient &+= 1
        emit(.clientToServer, flags: .ack, sequence: nextSequence.clientToServer, payload: [])
    }

    /// Sends `bytes` from one side as segments of the given sizes (the rest in a last segment),
    /// emitted in `order` (indices into the segments; all of them, once each, by default in
    /// turn), then retransmits the segments listed in `retransmit`.
    public mutating func send(_ bytes: [UInt8], _ direction: TCPDirection, sizes: [Int] = [], order: [Int]? = nil, retransmit: [Int] = []) {
        var segments: [(sequence: UInt32, payload: [UInt8])] = []
        var offset = 0
        for size in sizes where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            segments.append((nextSequence[direction] &+ UInt32(offset), Array(bytes[offset..<end])))
            offset = end
        }
        if offset < bytes.count || segments.isEmpty {
            segments.append((nextSequence[direction] &+ UInt32(offset), Array(bytes[offset...])))
        }
        nextSequence[direction] &+= UInt32(bytes.count)
        for index in (order ?? Array(segments.indices)) + retransmit {
            emit(direction, flags: [.ack, .psh], sequence: segments[index].sequence, payload: segments[index].payload)
        }
    }

    /// FIN from the client, FIN-ACK from the server, the client's last ACK.
    public mutating func close() {
        emit(.clientToServer, flags: [.fin, .ack], sequence: nextSequence.clientToServer, payload: [])
        nextSequence.clientToServer &+= 1
        emit(.serverToClient, flags: [.fin, .ack], sequence: nextSequence.serverToClient, payload: [])
        nextSequence.serverToClient &+= 1
        emit(.clientToServer, flags: .ack, sequence: nextSequence.clientToServer, payload: [])
    }

    /// Marks the last packet as cut to `length` bytes by the capture (a short snapshot length).
    public mutating func truncateLastPacket(to length: Int) {
        records[records.count - 1].capturedLength = length
    }

    /// Lets `nanoseconds` pass before the next packet.
    public mutating func wait(nanoseconds: UInt64) {
        let total = UInt64(time.nanoseconds) + nanoseconds
        time = CaptureTime(seconds: time.seconds + Int64(total / 1_000_000_000), nanoseconds: UInt32(total % 1_000_000_000))
    }

    private mutating func emit(_ direction: TCPDirection, flags: TCPSegment.Flags, sequence: UInt32, payload: [UInt8]) {
        let (source, destination) = direction == .clientToServer ? (client, server) : (server, client)
        let acknowledgement = flags.contains(.ack) ? nextSequence[direction.reversed] : 0
        let tcp = Self.tcpHeader(source: source, destination: destination, sequence: sequence,
                                 acknowledgement: acknowledgement, flags: flags, payload: payload)
        let packet = Self.ipPacket(source: source.address, destination: destination.address, tcp: tcp + payload)
        records.append(CaptureRecord(time: time, bytes: linkHeader(for: packet, outgoing: direction == .clientToServer) + packet))
        wait(nanoseconds: UInt64(step))
    }

    private static func tcpHeader(source: TCPEndpoint, destination: TCPEndpoint, sequence: UInt32, acknowledgement: UInt32,
                                  flags: TCPSegment.Flags, payload: [UInt8]) -> [UInt8] {
        var header: [UInt8] = []
        ByteOrder.bigEndian.append(source.port, to: &header)
        ByteOrder.bigEndian.append(destination.port, to: &header)
        ByteOrder.bigEndian.append(sequence, to: &header)
        ByteOrder.bigEndian.append(acknowledgement, to: &header)
        header += [0x50, flags.rawValue]
        ByteOrder.bigEndian.append(UInt16(65_535), to: &header)
        header += [0, 0, 0, 0]
        var pseudo = source.address.bytes + destination.address.bytes
        let length = UInt32(header.count + payload.count)
        if source.address.isIPv6 {
            ByteOrder.bigEndian.append(length, to: &pseudo)
            pseudo += [0, 0, 0, 6]
        } else {
            pseudo += [0, 6]
            ByteOrder.bigEndian.append(UInt16(length), to: &pseudo)
        }
        let checksum = InternetChecksum.finish(InternetChecksum.sum(header + payload, initial: InternetChecksum.sum(pseudo)))
        header[16] = UInt8(checksum >> 8)
        header[17] = UInt8(truncatingIfNeeded: checksum)
        return header
    }

    private static func ipPacket(source: IPAddress, destination: IPAddress, tcp: [UInt8]) -> [UInt8] {
        var header: [UInt8] = []
        if source.isIPv6 {
            header += [0x60, 0, 0, 0]
            ByteOrder.bigEndian.append(UInt16(tcp.count), to: &header)
            header += [6, 64]
            return header + source.bytes + destination.bytes + tcp
        }
        header += [0x45, 0]
        ByteOrder.bigEndian.append(UInt16(20 + tcp.count), to: &header)
        header += [0, 0, 0x40, 0, 64, 6, 0, 0]
        header += source.bytes + destination.bytes
        let checksum = InternetChecksum.finish(InternetChecksum.sum(header))
        header[10] = UInt8(checksum >> 8)
        header[11] = UInt8(truncatingIfNeeded: checksum)
        return header + tcp
    }

    private func linkHeader(for packet: [UInt8], outgoing: Bool) -> [UInt8] {
        let isIPv6 = packet[0] >> 4 == 6
        let etherType: UInt16 = isIPv6 ? 0x86DD : 0x0800
        var header: [UInt8] = []
        switch linkType {
        case .ethernet:
            header += [0, 0, 0, 0, 0, outgoing ? 2 : 1, 0, 0, 0, 0, 0, outgoing ? 1 : 2]
            if let vlan {
                ByteOrder.bigEndian.append(UInt16(0x8100), to: &header)
                ByteOrder.bigEndian.append(vlan, to: &header)
            }
            ByteOrder.bigEndian.append(etherType, to: &header)
        case .linuxSLL:
            ByteOrder.bigEndian.append(UInt16(outgoing ? 4 : 0), to: &header)
            ByteOrder.bigEndian.append(UInt16(772), to: &header)
            ByteOrder.bigEndian.append(UInt16(6), to: &header)
            header += [0, 0, 0, 0, 0, 0, 0, 0]
            ByteOrder.bigEndian.append(etherType, to: &header)
        case .linuxSLL2:
            ByteOrder.bigEndian.append(etherType, to: &header)
            header += [0, 0]
            ByteOrder.bigEndian.append(UInt32(1), to: &header)
            ByteOrder.bigEndian.append(UInt16(772), to: &header)
            header += [outgoing ? 4 : 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]
        case .null:
            ByteOrder.littleEndian.append(UInt32(isIPv6 ? 30 : 2), to: &header)
        case .loop:
            ByteOrder.bigEndian.append(UInt32(isIPv6 ? 24 : 2), to: &header)
        default:
            break
        }
        return header
    }
}
