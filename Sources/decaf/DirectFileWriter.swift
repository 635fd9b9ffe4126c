import Foundation

/// Writes a file's bytes around the page cache on a thread of its own, so that rendering goes on
/// while the disk writes: buffers filled by the caller are written in the order they were handed
/// on, one after another in the file, their whole blocks through a descriptor opened with
/// O_DIRECT. Standard output's offset follows every write, so whatever writes to it next goes on
/// after them. If a direct write fails or falls short, the rest goes through standard output as
/// plain writes.
final class DirectFileWriter: @unchecked Sendable {
    static let bufferSize = 2 << 20
    /// Direct writes start and end on multiples of this, in memory and in the file.
    static let blockSize = 4096
    private static let buffers = 3

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var free: [UnsafeMutableRawBufferPointer]
    private var queued: [(buffer: UnsafeMutableRawBufferPointer, count: Int)] = []
    private var closed = false
    private var ended = false
    // The writing thread's own until `finish()` returns.
    private let direct: Int32
    private let standardOutput: Int32
    private var offset: Int
    private var directFailed = false
    private var failure: Int32?

    /// Writes through `direct` from `offset` on, keeping `standardOutput`'s offset after the last
    /// byte written; closes `direct` when finished.
    init(direct: Int32, standardOutput: Int32, offset: Int) {
        self.direct = direct
        self.standardOutput = standardOutput
        self.offset = offset
        free = (0..<Self.buffers).map { _ in .allocate(byteCount: Self.bufferSize, alignment: Self.blockSize) }
        Thread { [self] in run() }.start()
    }

    /// A buffer to fill, once one is free.
    func take() -> UnsafeMutableRawBufferPointer {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty { condition.wait() }
        return free.removeLast()
    }

    /// Queues the first `count` bytes of `buffer`, from `take()`, to be written after those queued
    /// before. Only the last buffer queued may end in a part of a block.
    func write(_ buffer: UnsafeMutableRawBufferPointer, count: Int) {
        condition.lock()
        queued.append((buffer, count))
        condition.broadcast()
        condition.unlock()
    }

    /// Returns once everything queued is written, with the error number of the first write the
    /// file refused, if one was.
    func finish() -> Int32? {
        condition.lock()
        closed = true
        condition.broadcast()
        while !ended { condition.wait() }
        condition.unlock()
        free.forEach { $0.deallocate() }
        return failure
    }

    private func run() {
        while let (buffer, count) = next() {
            if failure == nil { write(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
            condition.lock()
            free.append(buffer)
            condition.broadcast()
            condition.unlock()
        }
        close(direct)
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    private func next() -> (UnsafeMutableRawBufferPointer, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while queued.isEmpty && !closed { condition.wait() }
        return queued.isEmpty ? nil : queued.removeFirst()
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        let blocks = bytes.count / Self.blockSize * Self.blockSize
        var done = 0
        if !directFailed && blocks > 0 {
            let result = pwrite(direct, bytes.baseAddress, blocks, off_t(offset))
            done = max(result, 0)
            directFailed = result != blocks
        }
        offset += done
        _ = lseek(standardOutput, off_t(offset), SEEK_SET)
        let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
        failure = FileHandleOutput(descriptor: standardOutput).write(raw: rest)
        offset += rest.count
    }
}
