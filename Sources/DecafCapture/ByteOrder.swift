/// The byte order of a capture file's (or section's) integers: pcap and pcapng are written in the
/// capturing machine's order, which the magic number reveals.
public enum ByteOrder: Sendable, Hashable {
    case bigEndian
    case littleEndian

    func uint16(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt16 {
        let i = bytes.startIndex + offset
        let (first, second) = (UInt16(bytes[i]), UInt16(bytes[i + 1]))
        return self == .bigEndian ? first << 8 | second : second << 8 | first
    }

    func uint32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        let high = UInt32(uint16(bytes, at: self == .bigEndian ? offset : offset + 2))
        let low = UInt32(uint16(bytes, at: self == .bigEndian ? offset + 2 : offset))
        return high << 16 | low
    }

    func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        let ordered = self == .bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: ordered) { bytes.append(contentsOf: $0) }
    }
}

extension ArraySlice where Element == UInt8 {
    /// Network-order (big-endian) u16 at `offset` from the slice's start.
    func networkUInt16(at offset: Int) -> UInt16 { ByteOrder.bigEndian.uint16(self, at: offset) }

    /// Network-order (big-endian) u32 at `offset` from the slice's start.
    func networkUInt32(at offset: Int) -> UInt32 { ByteOrder.bigEndian.uint32(self, at: offset) }

    /// The `count` bytes from `offset` on, counted from the slice's start.
    func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        self[(startIndex + offset)..<(startIndex + offset + count)]
    }
}
