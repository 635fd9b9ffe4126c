/// A whole number on the command line, checked against the range the option means: a count, a
/// size, a port. Decimal, or `0x` hex where the protocol's numbers are usually written in hex.
enum IntegerArgument {
    /// A decimal number in `range`.
    static func within<Value: FixedWidthInteger & Sendable>(_ range: ClosedRange<Value>) -> @Sendable (String) throws(ArgumentProblem) -> Value {
        { text throws(ArgumentProblem) in try parse(text, in: range, hex: false) }
    }

    /// A number in `range`, decimal or `0x` hex: a field of the frame header.
    static func wire<Value: FixedWidthInteger & Sendable>(_ range: ClosedRange<Value> = Value.min...Value.max) -> @Sendable (String) throws(ArgumentProblem) -> Value {
        { text throws(ArgumentProblem) in try parse(text, in: range, hex: true) }
    }

    static func parse<Value: FixedWidthInteger>(_ text: String, in range: ClosedRange<Value>, hex: Bool) throws(ArgumentProblem) -> Value {
        let lower = text.lowercased()
        let isHex = hex && lower.hasPrefix("0x")
        let digits = isHex ? lower.dropFirst(2) : Substring(lower)
        let allowed: ClosedRange<Character> = "0"..."9"
        let isNumeral = !digits.isEmpty && digits.allSatisfy { allowed.contains($0) || (isHex && ("a"..."f").contains($0)) }
        let expected = "a whole number from \(range.lowerBound) to \(range.upperBound)" + (hex ? " (decimal or 0x hex)" : "")
        guard isNumeral else { throw ArgumentProblem("not \(expected)") }
        guard let value = Value(digits, radix: isHex ? 16 : 10), range.contains(value) else { throw ArgumentProblem("out of range; give \(expected)") }
        return value
    }
}
