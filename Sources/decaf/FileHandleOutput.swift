#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to a standard stream, for messages that must not interleave with stdout.
struct FileHandleOutput {
    let descriptor: Int32

    static let standardOutput = FileHandleOutput(descriptor: 1)
    static let standardError = FileHandleOutput(descriptor: 2)

    func write(_ text: String) {
        Array(text.utf8).withUnsafeBytes { write(raw: $0) }
    }

    /// Writes `bytes` as they are.
    func write(raw bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, start + written, bytes.count - written)
            if result <= 0 { return }
            written += result
        }
    }
}
