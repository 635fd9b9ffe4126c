#if canImport(Glibc)
import Glibc
#endif

/// An ordered byte sink in memory, with room for `capacity` bytes: past it a write fails as a full
/// disk does (ENOSPC), keeping what fitted of it, and nothing is written after it.
public struct MemoryByteSink: OrderedByteSink {
    public private(set) var bytes: [UInt8] = []
    public let capacity: Int
    public private(set) var failure: Int32?
    /// Writes asked for, whether they landed or not.
    public private(set) var writes = 0

    public init(capacity: Int = .max) {
        self.capacity = capacity
    }

    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        writes += 1
        guard failure == nil else { return }
        let room = capacity - self.bytes.count
        self.bytes.append(contentsOf: bytes.prefix(room))
        if bytes.count > room { failure = ENOSPC }
    }
}
