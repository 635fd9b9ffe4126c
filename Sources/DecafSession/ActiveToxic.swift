/// A toxic as a proxy applies it: to each chunk or frame with probability `toxicity` (toxiproxy's
/// name; there it is decided once per connection, here per chunk or frame, so a 30% toxic acts on
/// 30% of the traffic of every connection). Toxics that cut a connection draw once per connection.
public struct ActiveToxic: Hashable, Sendable {
    /// What the toxic does.
    public var toxic: Toxic
    /// From 0 (never) to 1 (always).
    public var toxicity: Double

    /// `toxic` acting on a share `toxicity` (0 to 1) of the traffic.
    public init(_ toxic: Toxic, toxicity: Double = 1) {
        self.toxic = toxic
        self.toxicity = min(1, max(0, toxicity.isNaN ? 1 : toxicity))
    }
}
