import NIOExtras
#if canImport(Glibc)
import Glibc
#endif

/// A pcap file that connections record to as they run (`--pcap` of the peer and the proxy), opened
/// with a reason a user can act on when it cannot be written.
public enum PcapFile {
    /// Why a pcap file cannot be written, in the user's words.
    public struct Problem: Error, CustomStringConvertible {
        /// The file asked for.
        public let path: String
        /// Why it cannot be written, as the system says it.
        public let reason: String

        /// "cannot write the pcap file PATH: REASON".
        public var description: String { "cannot write the pcap file \(path): \(reason)" }
    }

    /// Opens `path` for writing; `onError` hears write failures later on.
    public static func open(path: String, onError: @escaping @Sendable (Error) -> Void) throws(Problem) -> NIOWritePCAPHandler.SynchronizedFileSink {
        do {
            return try NIOWritePCAPHandler.SynchronizedFileSink.fileSinkWritingToFile(path: path, errorHandler: onError)
        } catch {
            throw Problem(path: path, reason: whyUnwritable(path) ?? "\(error)")
        }
    }

    private static func whyUnwritable(_ path: String) -> String? {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT, 0o644)
        guard descriptor < 0 else {
            close(descriptor)
            return nil
        }
        return String(cString: strerror(errno)).lowercased()
    }
}
