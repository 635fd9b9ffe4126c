import CDirectIO
#if canImport(Glibc)
import Glibc
#endif

/// Writes a listing to standard output in order. When standard output is a regular file and the
/// listing grows past `directThreshold`, the rest goes around the page cache (`DirectFileWriter`):
/// on this project's VM, putting gigabytes through the page cache costs the kernel one to several
/// seconds of CPU per GiB, writing them straight to the disk a tenth of that. Where standard output
/// is not such a file, or its file system refuses, every byte is written as it would be.
struct StandardOutputFile {
    /// What a listing writes through the page cache before the rest goes around it: small
    /// listings stay there for whoever reads them next.
    static let directThreshold = 16 << 20

    private let descriptor: Int32
    private var written = 0
    private var triedDirect = false
    private var writer: DirectFileWriter?
    private var filling = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var filled = 0
    /// The error number of the first write refused; nothing is written after it.
    private(set) var failure: Int32?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `bytes` after everything written before.
    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        var rest = bytes
        if !triedDirect && written + rest.count > Self.directThreshold {
            triedDirect = true
            rest = startDirect(with: rest)
            guard failure == nil else { return }
        }
        written += rest.count
        guard let writer else {
            failure = FileHandleOutput(descriptor: descriptor).write(raw: rest)
            return
        }
        while !rest.isEmpty {
            let count = min(rest.count, filling.count - filled)
            UnsafeMutableRawBufferPointer(rebasing: filling[filled..<filled + count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[..<count]))
            filled += count
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
            if filled == filling.count {
                writer.write(filling, count: filled)
                filling = writer.take()
                filled = 0
            }
        }
    }

    /// Writes what is left and returns once all is written, standard output's offset at its end.
    mutating func finish() {
        guard let writer else { return }
        self.writer = nil
        writer.write(filling, count: filled)
        failure = writer.finish()
    }

    /// Starts direct writing if standard output allows it, writing as much of `bytes` as brings
    /// the file offset to a block boundary first; returns what is left to write.
    private mutating func startDirect(with bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var status = stat()
        let flags = fcntl(descriptor, F_GETFL)
        let position = lseek(descriptor, 0, SEEK_CUR)
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, flags >= 0, flags & O_APPEND == 0,
              position >= 0 else { return bytes }
        let direct = open("/proc/self/fd/\(descriptor)", O_WRONLY | O_CLOEXEC | DECAF_O_DIRECT)
        guard direct >= 0 else { return bytes }
        var directStatus = stat()
        guard fstat(direct, &directStatus) == 0, directStatus.st_dev == status.st_dev, directStatus.st_ino == status.st_ino else {
            close(direct)
            return bytes
        }
        let block = DirectFileWriter.blockSize
        let lead = min(bytes.count, (block - Int(position) % block) % block)
        failure = FileHandleOutput(descriptor: descriptor).write(raw: UnsafeRawBufferPointer(rebasing: bytes[..<lead]))
        written += lead
        guard failure == nil else {
            close(direct)
            return bytes
        }
        let writer = DirectFileWriter(direct: direct, standardOutput: descriptor, offset: Int(position) + lead)
        filling = writer.take()
        self.writer = writer
        return UnsafeRawBufferPointer(rebasing: bytes[lead...])
    }
}
