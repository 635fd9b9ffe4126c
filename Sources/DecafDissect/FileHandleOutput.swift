#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to a standard stream, for messages that must not interleave with stdout.
public struct FileHandleOutput: Sendable {
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public static let standardOutput = FileHandleOutput(descriptor: 1)
    public static let standardError = FileHandleOutput(descriptor: 2)

    /// Writes `text`; returns the error number when the stream refuses it, nil once it is written.
    @discardableResult
    public func write(_ text: String) -> Int32? {
        Array(text.utf8).withUnsafeBytes { write(raw: $0) }
    }

    /// Writes `bytes` as they are; returns the error number when the stream refuses them (a full
    /// disk), nil once all are written.
    @discardableResult
    public func write(raw bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let start = bytes.baseAddress else { return nil }
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, start + written, bytes.count - written)
            if result < 0 && errno == EINTR { continue }
            if result <= 0 { return result < 0 ? errno : EIO }
            written += result
        }
        return nil
    }
}
