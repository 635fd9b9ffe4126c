import CBaseline

/// libdeflate's CRC-32 called directly from C, to measure DecafWire's wrapper against.
@inline(__always)
func libdeflateCRC32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    decaf_baseline_crc32(bytes.baseAddress, bytes.count)
}
