/// Big-endian loads and stores at byte offsets of raw buffers, the only way DecafWire touches
/// multi-byte fields, and how its users read fields of frames they see in place. Callers check
/// bounds first.
extension UnsafeRawBufferPointer {
    /// The big-endian u16 at `offset`; the caller has checked that two bytes are there.
    @inlinable
    public func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// The big-endian u32 at `offset`; the caller has checked that four bytes are there.
    @inlinable
    public func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension UnsafeMutableRawBufferPointer {
    @inline(__always)
    func storeBigEndian(_ value: some FixedWidthInteger, at offset: Int) {
        storeBytes(of: value.bigEndian, toByteOffset: offset, as: type(of: value))
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in network byte order.
    @inline(__always)
    mutating func appendBigEndian(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}

extension ArraySlice where Element == UInt8 {
    /// `withUnsafeBytes` that keeps the body's typed error.
    @inline(__always)
    func withRawBytes<R>(_ body: (UnsafeRawBufferPointer) throws(WireError) -> R) throws(WireError) -> R {
        let result: Result<R, WireError> = withUnsafeBytes { raw in
            Result { () throws(WireError) in try body(raw) }
        }
        return try result.get()
    }
}

extension Collection where Element == UInt8 {
    /// Runs `body` over the bytes in place when they are contiguous, else over a copy, keeping the
    /// body's typed error.
    @inline(__always)
    func withContiguousRawBytes<R>(_ body: (UnsafeRawBufferPointer) throws(WireError) -> R) throws(WireError) -> R {
        let inPlace: Result<R, WireError>? = withContiguousStorageIfAvailable { buffer in
            Result { () throws(WireError) in try body(UnsafeRawBufferPointer(buffer)) }
        }
        if let inPlace { return try inPlace.get() }
        return try Array(self)[...].withRawBytes(body)
    }
}
