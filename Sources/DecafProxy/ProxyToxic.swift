import DecafSession

/// One toxic of a proxy as toxiproxy names it: a name unique in the proxy, the stream it acts on,
/// the toxic, and its toxicity (the share of chunks or frames it acts on).
public struct ProxyToxic: Hashable, Sendable {
    public var name: String
    public var stream: ProxyStream
    public var toxic: Toxic
    public var toxicity: Double

    public init(name: String, stream: ProxyStream, toxic: Toxic, toxicity: Double = 1) {
        self.name = name
        self.stream = stream
        self.toxic = toxic
        self.toxicity = toxicity
    }

    /// The toxic as the pipe applies it.
    public var active: ActiveToxic { ActiveToxic(toxic, toxicity: toxicity) }
}
