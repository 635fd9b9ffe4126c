/// The byte order of a capture file's (or section's) integers: pcap and pcapng are written in the
/// capturing machine's order, which the magic number reveals.
public enum ByteOrder: Sendable, Hashable {
    case bigEndian
    case littleEndian

    /// The u16 at `offset` of `bytes`, which the caller has counted.
    @inline(__always)
    func uint16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        let stored = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return self == .bigEndian ? UInt16(bigEndian: stored) : UInt16(littleEndian: stored)
    }

    /// The u32 at `offset` of `bytes`, which the caller has counted.
    @inline(__always)
    func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        let stored = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return self == .bigEndian ? UInt32(bigEndian: stored) : UInt32(littleEndian: stored)
    }

    func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        let ordered = self == .bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: ordered) { bytes.append(contentsOf: $0) }
    }
}

extension UnsafeRawBufferPointer {
    /// Network-order (big-endian) u16 at `offset`, which the caller has counted.
    @inline(__always)
    func networkUInt16(at offset: Int) -> UInt16 { ByteOrder.bigEndian.uint16(self, at: offset) }

    /// Network-order (big-endian) u32 at `offset`, which the caller has counted.
    @inline(__always)
    func networkUInt32(at offset: Int) -> UInt32 { ByteOrder.bigEndian.uint32(self, at: offset) }

    /// The `count` bytes from `offset` on.
    @inline(__always)
    func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: self[offset..<(offset + count)])
    }
}
