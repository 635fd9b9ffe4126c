/// The capture file formats Decaf reads, told apart by their first four bytes.
public enum CaptureFormat: String, Sendable, Hashable {
    /// libpcap's format (tcpdump -w): either byte order, microsecond or nanosecond timestamps.
    case pcap
    /// pcapng (Wireshark, tshark and dumpcap's default).
    case pcapng

    /// The format whose magic `prefix` starts with, if any.
    public static func detect(_ prefix: some Collection<UInt8>) -> CaptureFormat? {
        let magic = Array(prefix.prefix(4))
        guard magic.count == 4 else { return nil }
        return magic.withUnsafeBytes(detect(raw:))
    }

    /// The format whose magic the first four of `bytes` are, if any.
    static func detect(raw bytes: UnsafeRawBufferPointer) -> CaptureFormat? {
        guard bytes.count >= 4 else { return nil }
        if bytes.networkUInt32(at: 0) == PcapngBlock.sectionHeader { return .pcapng }
        if PcapMagic(bytes) != nil { return .pcap }
        return nil
    }
}

/// A pcap file's magic: its byte order and whether timestamps count micro- or nanoseconds.
struct PcapMagic {
    static let microseconds: UInt32 = 0xA1B2_C3D4
    static let nanoseconds: UInt32 = 0xA1B2_3C4D

    var byteOrder: ByteOrder
    var decimalExponent: Int

    /// The magic the first four of `bytes` (which the caller has counted) hold, if they are one.
    init?(_ bytes: UnsafeRawBufferPointer) {
        for order in [ByteOrder.bigEndian, .littleEndian] {
            switch order.uint32(bytes, at: 0) {
            case Self.microseconds: (byteOrder, decimalExponent) = (order, 6); return
            case Self.nanoseconds: (byteOrder, decimalExponent) = (order, 9); return
            default: continue
            }
        }
        return nil
    }
}
