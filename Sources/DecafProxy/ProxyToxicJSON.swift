import DecafSession

/// A toxic as toxiproxy's API and Decaf's timeline files write it: `type`, `stream` (both streams
/// when absent, in a timeline), `toxicity` (1 when absent), `attributes` in toxiproxy's units
/// (milliseconds, the slicer's delay in microseconds, KB/s) or as text with a unit (`"200ms"`).
public struct ProxyToxicJSON: Codable, Hashable, Sendable {
    public var name: String?
    public var type: String
    public var stream: String?
    public var toxicity: Double?
    public var attributes: [String: ToxicAttributeValue]?

    /// How `toxic` is shown.
    public init(_ toxic: ProxyToxic) {
        name = toxic.name
        type = ToxicCatalog.type(of: toxic.toxic)
        stream = toxic.stream.rawValue
        toxicity = toxic.toxicity
        attributes = ToxicCatalog.attributes(of: toxic.toxic)
    }

    /// The streams it names: one, or both when none is named and `bothWhenAbsent`.
    public func streams(bothWhenAbsent: Bool) throws(ToxicCatalog.Problem) -> [ProxyStream] {
        guard let stream else {
            guard bothWhenAbsent else { throw ToxicCatalog.Problem("a toxic needs a stream: upstream or downstream") }
            return ProxyStream.allCases
        }
        guard let named = ProxyStream(rawValue: stream) else { throw ToxicCatalog.Problem("stream '\(stream)' is neither upstream nor downstream") }
        return [named]
    }

    /// The toxicity, checked.
    public func checkedToxicity() throws(ToxicCatalog.Problem) -> Double {
        guard let toxicity else { return 1 }
        guard toxicity.isFinite, (0...1).contains(toxicity) else { throw ToxicCatalog.Problem("toxicity \(toxicity) is not from 0 to 1") }
        return toxicity
    }

    /// The toxic its type and attributes make.
    public func toxic() throws(ToxicCatalog.Problem) -> Toxic {
        var texts: [String: String] = [:]
        for (name, value) in attributes ?? [:] {
            switch value {
            case let .text(text): texts[name] = text
            case let .number(number):
                guard number.isFinite, number >= 0 else { throw ToxicCatalog.Problem("\(name): \(number) is not zero or more") }
                // The slicer's delay is in microseconds in toxiproxy; other durations in milliseconds.
                let scaled = type == "slicer" && name == "delay" ? number / 1000 : number
                texts[name] = scaled.rounded() == scaled && scaled < 1e15 ? String(Int64(scaled)) : String(scaled)
            }
        }
        return try ToxicCatalog.toxic(type: type, attributes: texts, bareUnit: 0.001)
    }
}
