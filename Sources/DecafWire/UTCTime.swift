/// UNIX times as UTC ISO-8601 text: a frame's timestamp field (to the second) and a capture's
/// packet times (to the microsecond) are shown this one way in every output.
public enum UTCTime {
    /// A frame's `timestamp`, to the second.
    public static func iso8601(_ timestamp: UInt32) -> String {
        // Every 32-bit timestamp is in years 1970 to 2106.
        iso8601(seconds: Int64(timestamp))!
    }

    /// `seconds` since 1970 in UTC ISO-8601 (`2023-11-14T22:13:20Z`), with a `.` and six digits of
    /// `microseconds` before the `Z` when given: what Foundation's `.iso8601` style writes, made
    /// digit by digit, since a dissector writes one or two per frame. Nil for times before 1970 and
    /// after 9999, and microseconds outside a second.
    public static func iso8601(seconds: Int64, microseconds: Int? = nil) -> String? {
        guard (0...253_402_300_799).contains(seconds), (0..<1_000_000).contains(microseconds ?? 0) else { return nil }
        // Days since 1970 to a civil date (H. Hinnant's days_from_civil, inverted).
        let days = seconds / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        let length = microseconds == nil ? 20 : 27
        return String(unsafeUninitializedCapacity: length) { buffer in
            func put(_ value: Int, width: Int, at start: Int) { putDigits(value, width: width, at: start, in: buffer) }
            put(year, width: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, width: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, width: 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, width: 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, width: 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, width: 2, at: 17)
            if let microseconds {
                buffer[19] = UInt8(ascii: ".")
                put(microseconds, width: 6, at: 20)
            }
            buffer[length - 1] = UInt8(ascii: "Z")
            return length
        }
    }

    /// Writes `value` in decimal, zero-padded to `width` digits, at `start` of `buffer`.
    @inlinable
    public static func putDigits(_ value: Int, width: Int, at start: Int, in buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(start >= 0 && start + width <= buffer.count, "digits beyond their buffer")
        var rest = value
        for index in stride(from: start + width - 1, through: start, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
