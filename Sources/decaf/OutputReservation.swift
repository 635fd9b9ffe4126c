import CFileSpace
#if canImport(Glibc)
import Glibc
#endif

/// Reserves the disk space of standard output ahead of the writes when it is a regular file: on
/// ext4 and its like, finding blocks for every write as the file grows costs the kernel several
/// times what copying the bytes does, and `--json` writes gigabytes. Space is reserved 256 MiB at
/// a time without changing the file's size, and what was reserved past the last byte is given
/// back at the end. Where the file system cannot reserve space, writes go on as they would.
struct OutputReservation {
    static let step = 256 << 20
    private static let keepSize = DECAF_FALLOC_FL_KEEP_SIZE

    private let descriptor: Int32
    private var isActive: Bool
    /// The file offset of the next byte written, and the end of the space reserved.
    private var offset: Int
    private var reservedEnd: Int

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var status = stat()
        let position = lseek(descriptor, 0, SEEK_CUR)
        isActive = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && position >= 0
        offset = Int(max(position, 0))
        reservedEnd = offset
    }

    /// Makes sure the next `count` bytes written have their space.
    mutating func reserve(_ count: Int) {
        guard isActive else { return }
        if offset + count > reservedEnd {
            let length = max(Self.step, offset + count - reservedEnd)
            if fallocate(descriptor, Self.keepSize, off_t(reservedEnd), off_t(length)) == 0 {
                reservedEnd += length
            } else {
                isActive = false
            }
        }
        offset += count
    }

    /// Gives back the space reserved past the end of the file. Truncating a file to its own size
    /// frees the blocks reserved beyond it and cuts nothing, whoever else wrote to it.
    mutating func finish() {
        guard isActive, reservedEnd > offset else { return }
        isActive = false
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        _ = ftruncate(descriptor, status.st_size)
    }
}
