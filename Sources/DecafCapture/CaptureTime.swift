import DecafWire
import Foundation

/// When a packet was captured: UNIX seconds and nanoseconds, whatever resolution the file used.
public struct CaptureTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var seconds: Int64
    public var nanoseconds: UInt32

    public init(seconds: Int64, nanoseconds: UInt32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The time `seconds` plus `ticks` units of 10^-`exponent` s (pcap's microseconds and
    /// nanoseconds; pcapng `if_tsresol` with the high bit clear, with `seconds` 0). Ticks of a
    /// whole second or more, as a damaged file may hold, carry into the seconds.
    init(seconds: UInt64 = 0, ticks: UInt64, decimalExponent exponent: Int) {
        let exponent = min(exponent, 19)
        let unit = Self.powersOfTen[exponent]
        let rest = ticks % unit
        let nanoseconds = exponent <= 9 ? rest * Self.powersOfTen[9 - exponent] : rest / Self.powersOfTen[exponent - 9]
        let (whole, overflow) = seconds.addingReportingOverflow(ticks / unit)
        self.init(seconds: overflow ? .max : Int64(clamping: whole), nanoseconds: UInt32(nanoseconds))
    }

    /// The time of `ticks` units of 2^-`exponent` s (`if_tsresol` with the high bit set).
    init(ticks: UInt64, binaryExponent exponent: Int) {
        let exponent = min(exponent, 63)
        let fraction = ticks & ((1 << UInt64(exponent)) - 1)
        let nanoseconds = fraction.multipliedFullWidth(by: 1_000_000_000)
        let scaled = exponent == 0 ? 0 : (nanoseconds.low >> UInt64(exponent)) | (UInt64(nanoseconds.high) << UInt64(64 - exponent))
        self.init(seconds: Int64(clamping: ticks >> UInt64(exponent)), nanoseconds: UInt32(truncatingIfNeeded: scaled))
    }

    /// 10^0 through 10^19, the powers a timestamp resolution can name.
    private static let powersOfTen: [UInt64] = (0...19).map { exponent in (0..<exponent).reduce(1) { value, _ in value * 10 } }

    /// Nanoseconds since `earlier`, for durations such as ACK round trips; saturates rather than
    /// overflows on the absurd spans a damaged capture can hold.
    public func nanoseconds(since earlier: CaptureTime) -> Int64 {
        let (span, overflow) = (seconds - earlier.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds > earlier.seconds ? .max : .min }
        return span.addingReportingOverflow(Int64(nanoseconds) - Int64(earlier.nanoseconds)).partialValue
    }

    public static func < (lhs: CaptureTime, rhs: CaptureTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// UTC ISO-8601 with microseconds, as capture tools show packet times.
    public var description: String {
        Self.iso8601(seconds: seconds, microseconds: Int(nanoseconds / 1000))
    }

    /// `seconds` since 1970 in UTC ISO-8601, with microseconds when given (`UTCTime`). Times before
    /// 1970 (where Foundation turns to the Julian calendar before 1582) and after 9999, which a
    /// damaged capture can hold, are left to Foundation.
    public static func iso8601(seconds: Int64, microseconds: Int? = nil) -> String {
        if let text = UTCTime.iso8601(seconds: seconds, microseconds: microseconds) { return text }
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
        return microseconds.map { whole.dropLast() + "." + digits(Int64($0), 6) + "Z" } ?? whole
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        let zeros = max(0, width - text.utf8.count)
        return String(unsafeUninitializedCapacity: zeros) { $0.initialize(repeating: UInt8(ascii: "0")); return zeros } + text
    }

    /// Time of day only (`HH:MM:SS.micro`), for one-line summaries.
    public var timeOfDay: String {
        String(unsafeUninitializedCapacity: Self.timeOfDayLength) { buffer in
            writeTimeOfDay(to: buffer)
            return Self.timeOfDayLength
        }
    }

    /// Bytes `timeOfDay` has.
    public static let timeOfDayLength = 15

    /// Writes `timeOfDay` digit by digit into the first `timeOfDayLength` bytes of `buffer`: a
    /// summary writes one per frame.
    public func writeTimeOfDay(to buffer: UnsafeMutableBufferPointer<UInt8>) {
        let daySeconds = Int(((seconds % 86_400) + 86_400) % 86_400)
        let micro = Int(nanoseconds / 1000) % 1_000_000
        func put(_ value: Int, width: Int, at start: Int) { UTCTime.putDigits(value, width: width, at: start, in: buffer) }
        put(daySeconds / 3600, width: 2, at: 0)
        buffer[2] = UInt8(ascii: ":")
        put(daySeconds / 60 % 60, width: 2, at: 3)
        buffer[5] = UInt8(ascii: ":")
        put(daySeconds % 60, width: 2, at: 6)
        buffer[8] = UInt8(ascii: ".")
        put(micro, width: 6, at: 9)
    }
}
