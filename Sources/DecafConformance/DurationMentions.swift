/// The durations a verdict's text mentions ("after 231 ms", "2.5 s"), and the text around them: two
/// texts of one behaviour on two clocks (a model on a virtual one, a target over loopback) have
/// the same words and durations that agree. A scan of the text's bytes, not a regular expression:
/// the diagnosis compares verdicts hundreds of thousands of times.
struct DurationMentions: Equatable {
    /// The text with each duration as `#`.
    var words: [UInt8] = []
    /// Each duration's milliseconds, in order.
    var milliseconds: [Double] = []

    /// The mentions in `text`: a number (digits, and a fraction if a point and a digit follow)
    /// that starts a word, an optional space, and `ms` or `s` that ends one.
    init(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if let (value, end) = Self.duration(in: bytes, at: index) {
                words.append(UInt8(ascii: "#"))
                milliseconds.append(value)
                index = end
            } else {
                words.append(bytes[index])
                index += 1
            }
        }
    }

    /// The duration that starts at `start` in `bytes`, in milliseconds, and where it ends.
    private static func duration(in bytes: [UInt8], at start: Int) -> (Double, Int)? {
        guard isDigit(bytes[start]), start == 0 || !isWord(bytes[start - 1]) else { return nil }
        var index = start
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "."), isDigit(bytes[index + 1]) {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        let scale: Double
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "m"), bytes[index + 1] == UInt8(ascii: "s") {
            (scale, index) = (1, index + 2)
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "s") {
            (scale, index) = (1000, index + 1)
        } else {
            return nil
        }
        guard index == bytes.count || !isWord(bytes[index]) else { return nil }
        return (number * scale, index)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// An ASCII letter, digit or underscore: what a word is made of. A character beyond ASCII (the
    /// verdicts' ≤, ×, →) is not, so "≤5 ms" mentions a duration.
    private static func isWord(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
    }

    /// Whether `other` mentions the same words and, one by one, durations within `tolerance` of these.
    func agree(with other: DurationMentions, within tolerance: (Double, Double) -> Double) -> Bool {
        words == other.words && zip(milliseconds, other.milliseconds).allSatisfy { abs($0 - $1) <= tolerance($0, $1) }
    }
}
