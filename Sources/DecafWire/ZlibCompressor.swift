import CDeflate

/// Makes zlib-format (RFC 1950) bodies with libdeflate. Holds libdeflate's compressor state, so
/// one instance is reused across frames; it is not safe to share between concurrent callers.
public final class ZlibCompressor {
    /// libdeflate's default level, a good balance for chat-sized bodies.
    public static let defaultLevel = 6

    /// The zlib level, 1 (fastest) to 9 (smallest).
    public let level: Int
    private let handle: OpaquePointer

    /// A compressor at `level`, 0 (store) to 12 (slowest, smallest).
    public init(level: Int = ZlibCompressor.defaultLevel) {
        precondition((0...12).contains(level), "libdeflate levels are 0...12")
        guard let handle = libdeflate_alloc_compressor(Int32(level)) else {
            fatalError("libdeflate_alloc_compressor: out of memory")
        }
        self.level = level
        self.handle = handle
    }

    deinit { libdeflate_free_compressor(handle) }

    /// One complete zlib stream holding `input`.
    public func compress(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        let bound = libdeflate_zlib_compress_bound(handle, input.count)
        return [UInt8](unsafeUninitializedCapacity: bound) { output, count in
            count = libdeflate_zlib_compress(handle, input.baseAddress, input.count, output.baseAddress, bound)
            precondition(count > 0, "libdeflate_zlib_compress_bound was too small")
        }
    }

    /// One complete zlib stream holding `input`.
    public func compress(_ input: some Collection<UInt8>) -> [UInt8] {
        if let out = input.withContiguousStorageIfAvailable({ compress(UnsafeRawBufferPointer($0)) }) {
            return out
        }
        return Array(input).withUnsafeBytes { compress($0) }
    }
}
