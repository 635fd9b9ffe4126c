/// A length of time as people write it: a number and a unit, `500ms`, `2s`, `1.5m` or `1h`; a bare
/// number counts `bareUnit` seconds, and is refused where there is none (a toxic's time on the
/// command line, where toxiproxy's users think in milliseconds and the options in seconds, so no
/// unit is guessed). Refused, with the reason: anything that is not such a number
/// (NaN, infinity, a sign, an exponent), and anything longer than a timer can wait (NIO counts
/// nanoseconds in an Int64, about 292 years). One reading for the command line, timeline files
/// and the proxy's control API.
public enum WrittenDuration {
    /// Why a text is not a duration, in the user's words.
    public struct Problem: Error, CustomStringConvertible {
        /// What is wrong, and what to write instead.
        public let description: String
    }

    private static let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]

    /// The duration `text` says, zero or longer; a bare number counts `bareUnit` seconds, and is
    /// refused when `bareUnit` is nil.
    public static func parse(_ text: String, bareUnit: Double? = 1) throws(Problem) -> Duration {
        let unit = units.first { text.hasSuffix($0.suffix) && text.count > $0.suffix.count }
        let number = unit.map { text.dropLast($0.suffix.count) } ?? Substring(text)
        guard isPlainNumber(number), let value = Double(number) else {
            throw Problem(description: "not a duration; give a number and a unit (ms, s, m or h), such as 500ms, 2s or 1m"
                + (bareUnit.map { "; a bare number is " + ($0 == 1 ? "seconds" : "milliseconds") } ?? ""))
        }
        guard let scale = unit?.seconds ?? bareUnit else {
            throw Problem(description: "'\(text)' has no unit; give one: \(text)ms or \(text)s")
        }
        let nanoseconds = (value * scale * 1e9).rounded()
        guard nanoseconds < Double(Int64.max) else { throw Problem(description: "longer than any timer can wait (about 292 years)") }
        return .nanoseconds(Int64(nanoseconds))
    }

    /// Digits with at most one decimal point: no sign, exponent, NaN or infinity.
    private static func isPlainNumber(_ text: Substring) -> Bool {
        let digits = text.filter { ("0"..."9").contains($0) }.count
        let points = text.filter { $0 == "." }.count
        return digits > 0 && points <= 1 && digits + points == text.count
    }
}
