import CDeflate

/// CRC-32/ISO-HDLC (the zlib and Ethernet CRC), the frame checksum (CRC-1), computed by
/// libdeflate's vectorised implementation.
public enum CRC32 {
    /// The CRC-32 of `bytes`; 0 for no bytes.
    @inlinable
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        return libdeflate_crc32(0, base, bytes.count)
    }

    /// The CRC-32 of `bytes`; 0 for no bytes. Inlinable, so callers get it specialized for their
    /// collection type instead of paying for a generic call per checksum.
    @inlinable
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
            return crc
        }
        return Array(bytes).withUnsafeBytes { checksum($0) }
    }
}
