import DecafWire

/// A toxic's attributes as text (from the command line, a timeline file or the control API),
/// taken one by one by the toxic that reads them, each with the refusal a person can act on.
/// Durations without a unit count `bareUnit` seconds (milliseconds in a timeline file and the
/// control API, as in toxiproxy's), or are refused when it is nil (the command line). `lenient` reads them as toxiproxy's API does: a
/// missing attribute is zero, an unknown one is ignored.
public struct ToxicAttributes {
    /// The toxic's type, for messages.
    public let type: String
    private var given: [String: String]
    /// Seconds a number without a unit counts; nil refuses it (the command line).
    public let bareUnit: Double?
    /// Whether a missing attribute is zero and an unknown one ignored, as toxiproxy's API reads them.
    public let lenient: Bool

    /// The attributes `given` to a toxic of `type`, read as `bareUnit` and `lenient` say.
    public init(type: String, _ given: [String: String], bareUnit: Double? = nil, lenient: Bool = false) {
        self.type = type
        self.given = given
        self.bareUnit = bareUnit
        self.lenient = lenient
    }

    /// The attributes no toxic took, by name.
    public var untaken: [String] { given.keys.sorted() }

    /// Takes attribute `name`'s text, if given.
    public mutating func take(_ name: String) -> String? { given.removeValue(forKey: name) }

    /// A number's text, "0" when it is missing and the reading is lenient.
    private mutating func number(_ name: String) -> String? { take(name) ?? (lenient ? "0" : nil) }

    /// Takes duration `name`: `200ms`, `2s`, or a bare number in `bareUnit`; zero when missing and not `required`.
    public mutating func duration(_ name: String, required: Bool = true) throws(ToxicProblem) -> Duration {
        guard let text = number(name) else {
            if required { throw ToxicProblem("\(type) needs \(name), such as \(type):\(name)=200ms") }
            return .zero
        }
        do { return try WrittenDuration.parse(text, bareUnit: bareUnit) } catch { throw ToxicProblem("\(name): \(error)") }
    }

    /// A whole number in `range`; a lenient reading also takes 0 where `range` starts at 1.
    public mutating func count(_ name: String, _ range: ClosedRange<Int>, required: Bool = true) throws(ToxicProblem) -> Int {
        guard let text = number(name) else {
            if required { throw ToxicProblem("\(type) needs \(name), a number") }
            return 0
        }
        let allowed = lenient && range.lowerBound == 1 ? 0...range.upperBound : range
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text), allowed.contains(value) else {
            throw ToxicProblem("\(name): '\(text)' is not a whole number from \(allowed.lowerBound) to \(allowed.upperBound)")
        }
        return value
    }

    /// From 0 to 1, or a percentage.
    public mutating func probability(_ name: String) throws(ToxicProblem) -> Double {
        guard let text = number(name) else { throw ToxicProblem("\(type) needs \(name), such as \(type)=0.3 or \(type)=30%") }
        let percent = text.hasSuffix("%")
        guard let value = Double(percent ? String(text.dropLast()) : text), value.isFinite, (0...1).contains(percent ? value / 100 : value) else {
            throw ToxicProblem("\(name): '\(text)' is not a probability; give 0 to 1, such as 0.3, or a percentage, such as 30%")
        }
        return percent ? value / 100 : value
    }

    /// A duration as the API shows it, in milliseconds.
    public static func milliseconds(_ duration: Duration) -> ToxicAttributeValue { .number(duration / .milliseconds(1)) }
}
