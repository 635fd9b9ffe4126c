/// A length of time on the command line: a number and a unit, `500ms`, `2s`, `1.5m` or `1h`; a bare
/// number counts seconds, the one default unit of every duration option. Refused, with the reason:
/// anything that is not such a number (NaN, infinity, a sign, an exponent), and anything longer than
/// a timer can wait (NIO counts nanoseconds in an Int64, about 292 years).
enum DurationArgument {
    private static let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]

    /// A duration that must be longer than zero: a timeout, an interval, a deadline.
    @Sendable static func positive(_ text: String) throws(ArgumentProblem) -> Duration {
        let duration = try nonNegative(text)
        guard duration > .zero else { throw ArgumentProblem("must be longer than 0; give a duration such as 500ms, 2s or 1m") }
        return duration
    }

    /// A duration that may be zero: a delay.
    @Sendable static func nonNegative(_ text: String) throws(ArgumentProblem) -> Duration {
        let unit = units.first { text.hasSuffix($0.suffix) && text.count > $0.suffix.count }
        let number = unit.map { text.dropLast($0.suffix.count) } ?? Substring(text)
        guard isPlainNumber(number), let value = Double(number) else {
            throw ArgumentProblem("not a duration; give a number and a unit (ms, s, m or h), such as 500ms, 2s or 1m; a bare number is seconds")
        }
        let nanoseconds = (value * (unit?.seconds ?? 1) * 1e9).rounded()
        guard nanoseconds < Double(Int64.max) else { throw ArgumentProblem("longer than any timer can wait (about 292 years)") }
        return .nanoseconds(Int64(nanoseconds))
    }

    /// Digits with at most one decimal point: no sign, exponent, NaN or infinity.
    private static func isPlainNumber(_ text: Substring) -> Bool {
        let digits = text.filter { ("0"..."9").contains($0) }.count
        let points = text.filter { $0 == "." }.count
        return digits > 0 && points <= 1 && digits + points == text.count
    }
}
