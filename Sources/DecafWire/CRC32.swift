import CDeflate

/// CRC-32/ISO-HDLC (the zlib and Ethernet CRC), the frame checksum (CRC-1), computed by
/// libdeflate's vectorised implementation.
public enum CRC32 {
    /// The CRC-32 of `bytes`; 0 for no bytes. With `crc`, the CRC-32 of the bytes it was
    /// computed over followed by `bytes`, so a long input can be checksummed piece by piece.
    @inlinable
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return libdeflate_crc32(crc, base, bytes.count)
    }

    /// The CRC-32 of `bytes`; 0 for no bytes. Inlinable, so callers get it specialized for their
    /// collection type instead of paying for a generic call per checksum.
    @inlinable
    public static func checksum(_ bytes: some Collection<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0), continuing: crc) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
