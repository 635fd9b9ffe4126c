import Foundation

/// The command line's clock: the commands are adapters, the only place Decaf reads the time.
enum Clock {
    /// The current UNIX time in seconds.
    @Sendable static func unixSeconds() -> UInt32 {
        UInt32(clamping: Int(Date().timeIntervalSince1970))
    }

    /// The current UNIX time in seconds, to the microsecond, for logs joined across processes.
    @Sendable static func now() -> Double {
        Date().timeIntervalSince1970
    }
}
