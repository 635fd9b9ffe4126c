import DecafSession

/// A toxic as a timeline file writes it, in the shape of toxiproxy's API: `type`, `stream` (both
/// streams when absent), `toxicity` (1 when absent), `attributes` in toxiproxy's units
/// (milliseconds, the slicer's delay in microseconds, KB/s) or as text with a unit (`"200ms"`).
struct ProxyToxicJSON: Decodable, Hashable, Sendable {
    var type: String
    var stream: String?
    var toxicity: Double?
    var attributes: [String: ToxicAttributeValue]?

    /// Adds the toxic to `toxics`, on the stream it names or on both.
    func add(to toxics: inout ProxyToxics) throws(ToxicCatalog.Problem) {
        let toxic = try self.toxic()
        let toxicity = try checkedToxicity()
        for stream in try streams() { toxics.add(toxic, stream: stream, toxicity: toxicity) }
    }

    private func streams() throws(ToxicCatalog.Problem) -> [ProxyStream] {
        guard let stream else { return ProxyStream.allCases }
        guard let named = ProxyStream(rawValue: stream) else { throw ToxicCatalog.Problem("stream '\(stream)' is neither upstream nor downstream") }
        return [named]
    }

    private func checkedToxicity() throws(ToxicCatalog.Problem) -> Double {
        guard let toxicity else { return 1 }
        guard toxicity.isFinite, (0...1).contains(toxicity) else { throw ToxicCatalog.Problem("toxicity \(toxicity) is not from 0 to 1") }
        return toxicity
    }

    private func toxic() throws(ToxicCatalog.Problem) -> Toxic {
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
