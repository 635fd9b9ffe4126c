/// The value of a toxic's attribute as JSON carries it: toxiproxy's attributes are numbers, the
/// frame toxics' message types a text.
public enum ToxicAttributeValue: Hashable, Sendable, Codable {
    /// A number: a probability, milliseconds, KB/s.
    case number(Double)
    /// A text: the frame toxics' message types.
    case text(String)

    /// Reads a JSON number, or else a string.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    /// Writes a JSON number or string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .number(number): try container.encode(number)
        case let .text(text): try container.encode(text)
        }
    }
}
