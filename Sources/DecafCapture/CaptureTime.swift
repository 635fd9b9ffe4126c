import Foundation

/// When a packet was captured: UNIX seconds and nanoseconds, whatever resolution the file used.
public struct CaptureTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var seconds: Int64
    public var nanoseconds: UInt32

    public init(seconds: Int64, nanoseconds: UInt32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The time of `ticks` units of 10^-`exponent` s (pcapng `if_tsresol` with the high bit clear,
    /// pcap's microseconds and nanoseconds).
    init(ticks: UInt64, decimalExponent exponent: Int) {
        let exponent = min(exponent, 19)
        var divisor: UInt64 = 1
        for _ in 0..<exponent { divisor *= 10 }
        let fraction = ticks % divisor
        let scaled = exponent <= 9
            ? fraction * (1..<(10 - exponent)).reduce(1) { value, _ in value * 10 }
            : fraction / (0..<(exponent - 9)).reduce(1) { value, _ in value * 10 }
        self.init(seconds: Int64(ticks / divisor), nanoseconds: UInt32(scaled))
    }

    /// The time of `ticks` units of 2^-`exponent` s (`if_tsresol` with the high bit set).
    init(ticks: UInt64, binaryExponent exponent: Int) {
        let exponent = min(exponent, 63)
        let fraction = ticks & ((1 << UInt64(exponent)) - 1)
        let nanoseconds = fraction.multipliedFullWidth(by: 1_000_000_000)
        let scaled = exponent == 0 ? 0 : (nanoseconds.low >> UInt64(exponent)) | (UInt64(nanoseconds.high) << UInt64(64 - exponent))
        self.init(seconds: Int64(ticks >> UInt64(exponent)), nanoseconds: UInt32(truncatingIfNeeded: scaled))
    }

    /// Seconds since `earlier`, for durations such as ACK round trips.
    public func nanoseconds(since earlier: CaptureTime) -> Int64 {
        (seconds - earlier.seconds) * 1_000_000_000 + Int64(nanoseconds) - Int64(earlier.nanoseconds)
    }

    public static func < (lhs: CaptureTime, rhs: CaptureTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// UTC ISO-8601 with microseconds, as capture tools show packet times.
    public var description: String {
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
        return whole.dropLast() + "." + microseconds + "Z"
    }

    /// Time of day only (`HH:MM:SS.micro`), for one-line summaries.
    public var timeOfDay: String {
        let daySeconds = ((seconds % 86_400) + 86_400) % 86_400
        return String(format: "%02lld:%02lld:%02lld.", daySeconds / 3600, daySeconds / 60 % 60, daySeconds % 60) + microseconds
    }

    private var microseconds: String {
        let micros = String(nanoseconds / 1000)
        return String(repeating: "0", count: 6 - micros.count) + micros
    }
}
