#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to a standard stream, for messages that must not interleave with stdout.
struct FileHandleOutput {
    let descriptor: Int32

    static let standardOutput = FileHandleOutput(descriptor: 1)
    static let standardError = FileHandleOutput(descriptor: 2)

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if result <= 0 { return }
            written += result
        }
    }
}
