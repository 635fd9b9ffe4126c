import DecafSession

/// A toxic as JSON writes it, in the shape of toxiproxy's API: `name`, `type`, `stream`,
/// `toxicity` (1 when absent), `attributes` in toxiproxy's units (milliseconds, the slicer's delay
/// in microseconds, KB/s) or as text with a unit (`"200ms"`). Timeline files and the control API
/// read it; the control API writes it.
struct ProxyToxicJSON: Codable, Hashable, Sendable {
    var name: String?
    var type: String
    var stream: String?
    var toxicity: Double?
    var attributes: [String: ToxicAttributeValue]?

    /// What a toxic's update may change: its attributes (the others keep their values) and
    /// its toxicity.
    struct Update: Decodable {
        var toxicity: Double?
        var attributes: [String: ToxicAttributeValue]?
    }

    /// `toxic` as the control API shows it.
    init(_ toxic: ProxyToxic) {
        name = toxic.name
        type = ToxicCatalog.type(of: toxic.toxic)
        stream = toxic.stream.rawValue
        toxicity = toxic.toxicity
        attributes = ToxicCatalog.attributes(of: toxic.toxic)
    }

    /// Adds the toxic to `toxics`, on the stream it names or on both (as a timeline file means it).
    func add(to toxics: inout ProxyToxics) throws(ToxicCatalog.Problem) {
        let toxic = try self.toxic()
        let toxicity = try checkedToxicity()
        for stream in try streams(default: ProxyStream.allCases) { toxics.add(toxic, stream: stream, toxicity: toxicity) }
    }

    /// The streams it names, or `default` when it names none (an empty name is none, as
    /// toxiproxy's clients send it).
    func streams(default: [ProxyStream]) throws(ToxicCatalog.Problem) -> [ProxyStream] {
        guard let stream, !stream.isEmpty else { return `default` }
        guard let named = ProxyStream(rawValue: stream) else { throw ToxicCatalog.Problem("stream '\(stream)' is neither upstream nor downstream") }
        return [named]
    }

    /// Its toxicity, 1 when absent.
    func checkedToxicity() throws(ToxicCatalog.Problem) -> Double {
        guard let toxicity else { return 1 }
        guard toxicity.isFinite, (0...1).contains(toxicity) else { throw ToxicCatalog.Problem("toxicity \(toxicity) is not from 0 to 1") }
        return toxicity
    }

    /// The toxic its type and attributes make; `lenient` as toxiproxy's API reads attributes
    /// (missing ones are zero, unknown ones ignored).
    func toxic(lenient: Bool = false) throws(ToxicCatalog.Problem) -> Toxic {
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
        return try ToxicCatalog.toxic(type: type, attributes: texts, bareUnit: 0.001, lenient: lenient)
    }
}
