import CDeflate

/// Inflates zlib-format bodies with libdeflate under a size cap (ZLIB-1, ZLIB-2). Holds libdeflate's
/// decompressor state, so one instance is reused across frames; it is not safe to share between
/// concurrent callers.
public final class ZlibInflater {
    private let handle: OpaquePointer
    /// The largest output buffer this inflater has allocated, in bytes: never more than the
    /// largest limit it was given.
    public private(set) var peakOutputCapacity = 0

    /// An inflater; its buffers are made on first use and kept for the next body.
    public init() {
        guard let handle = libdeflate_alloc_decompressor() else {
            fatalError("libdeflate_alloc_decompressor: out of memory")
        }
        self.handle = handle
    }

    deinit { libdeflate_free_decompressor(handle) }

    /// The bytes of the one zlib stream that `input` must be exactly, at most `limit` of them.
    ///
    /// The output buffer starts at 8 times the input (chat text compresses 3-6 times, so most
    /// bodies inflate in one pass) and grows 4 times at a time up to `limit`, so a body that would
    /// inflate past the limit costs at most about `limit` bytes of memory and work before it is
    /// refused. Errors carry offset 28, where the body starts in its frame.
    public func inflate(_ input: UnsafeRawBufferPointer, limit: Int) throws(WireError) -> [UInt8] {
        let bodyOffset = FrameHeader.size
        var capacity = min(limit, max(4096, input.count.multipliedReportingOverflow(by: 8).partialValue))
        while true {
            var consumed = 0
            var result = LIBDEFLATE_SUCCESS
            peakOutputCapacity = max(peakOutputCapacity, capacity)
            let output = [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, count in
                result = libdeflate_zlib_decompress_ex(
                    handle, input.baseAddress, input.count, buffer.baseAddress, capacity, &consumed, &count
                )
                if result != LIBDEFLATE_SUCCESS { count = 0 }
            }
            switch result {
            case LIBDEFLATE_SUCCESS:
                guard consumed == input.count else {
                    throw WireError(.bytesAfterZlibStream(count: input.count - consumed), offset: bodyOffset)
                }
                return output
            case LIBDEFLATE_INSUFFICIENT_SPACE where capacity < limit:
                capacity = limit / 4 < capacity ? limit : capacity * 4
            case LIBDEFLATE_INSUFFICIENT_SPACE:
                throw WireError(.inflatedBodyTooLarge(limit: limit), offset: bodyOffset)
            default:
                throw WireError(.malformedZlibStream, offset: bodyOffset)
            }
        }
    }

    /// As `inflate(_:limit:)` for any byte collection.
    public func inflate(_ input: some Collection<UInt8>, limit: Int) throws(WireError) -> [UInt8] {
        try input.withContiguousRawBytes { bytes throws(WireError) in try inflate(bytes, limit: limit) }
    }
}
