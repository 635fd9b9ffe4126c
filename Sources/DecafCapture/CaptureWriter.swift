/// Writes packets as pcap or pcapng files, in either byte order, so samples can exercise every
/// variant a reader meets in the field.
public enum CaptureWriter {
    /// A pcap file: microsecond or nanosecond timestamps; packets longer than `snapLength` are
    /// cut to it, keeping their original length, as a capture with `-s` does.
    public static func pcap(_ records: [CaptureRecord], linkType: LinkType, byteOrder: ByteOrder = .littleEndian,
                            nanoseconds: Bool = false, snapLength: Int = 262_144) -> [UInt8] {
        var out: [UInt8] = []
        byteOrder.append(nanoseconds ? PcapMagic.nanoseconds : PcapMagic.microseconds, to: &out)
        byteOrder.append(UInt16(2), to: &out)
        byteOrder.append(UInt16(4), to: &out)
        byteOrder.append(UInt32(0), to: &out)
        byteOrder.append(UInt32(0), to: &out)
        byteOrder.append(UInt32(snapLength), to: &out)
        byteOrder.append(linkType.rawValue, to: &out)
        for record in records {
            let captured = record.captured(snapLength: snapLength)
            byteOrder.append(UInt32(truncatingIfNeeded: record.time.seconds), to: &out)
            byteOrder.append(nanoseconds ? record.time.nanoseconds : record.time.nanoseconds / 1000, to: &out)
            byteOrder.append(UInt32(captured.count), to: &out)
            byteOrder.append(UInt32(record.bytes.count), to: &out)
            out += captured
        }
        return out
    }

    /// One pcapng section: a section header, one interface (nanosecond `if_tsresol`), and an
    /// enhanced packet block per record. Concatenate sections for a multi-section file.
    public static func pcapngSection(_ records: [CaptureRecord], linkType: LinkType, byteOrder: ByteOrder = .littleEndian,
                                     snapLength: Int = 262_144) -> [UInt8] {
        var out: [UInt8] = []
        var header: [UInt8] = []
        byteOrder.append(PcapngBlock.byteOrderMagic, to: &header)
        byteOrder.append(UInt16(1), to: &header)
        byteOrder.append(UInt16(0), to: &header)
        byteOrder.append(UInt64.max, to: &header)
        appendBlock(type: PcapngBlock.sectionHeader, body: header, byteOrder: byteOrder, to: &out)

        var interface: [UInt8] = []
        byteOrder.append(UInt16(truncatingIfNeeded: linkType.rawValue), to: &interface)
        byteOrder.append(UInt16(0), to: &interface)
        byteOrder.append(UInt32(snapLength), to: &interface)
        byteOrder.append(PcapngBlock.timestampResolutionOption, to: &interface)
        byteOrder.append(UInt16(1), to: &interface)
        interface += [9, 0, 0, 0]
        byteOrder.append(PcapngBlock.endOfOptions, to: &interface)
        byteOrder.append(UInt16(0), to: &interface)
        appendBlock(type: PcapngBlock.interfaceDescription, body: interface, byteOrder: byteOrder, to: &out)

        for record in records {
            let captured = record.captured(snapLength: snapLength)
            let ticks = UInt64(record.time.seconds) * 1_000_000_000 + UInt64(record.time.nanoseconds)
            var packet: [UInt8] = []
            byteOrder.append(UInt32(0), to: &packet)
            byteOrder.append(UInt32(ticks >> 32), to: &packet)
            byteOrder.append(UInt32(truncatingIfNeeded: ticks), to: &packet)
            byteOrder.append(UInt32(captured.count), to: &packet)
            byteOrder.append(UInt32(record.bytes.count), to: &packet)
            packet += captured
            packet += [UInt8](repeating: 0, count: (4 - captured.count % 4) % 4)
            appendBlock(type: PcapngBlock.enhancedPacket, body: packet, byteOrder: byteOrder, to: &out)
        }
        return out
    }

    private static func appendBlock(type: UInt32, body: [UInt8], byteOrder: ByteOrder, to out: inout [UInt8]) {
        let length = UInt32(12 + body.count)
        byteOrder.append(type, to: &out)
        byteOrder.append(length, to: &out)
        out += body
        byteOrder.append(length, to: &out)
    }
}
