/// The ACK round trips of a capture in four numbers, nanoseconds: the minimum and maximum exact,
/// the median and 99th percentile within 0.1% (or half a microsecond).
public struct RoundTripSummary: Codable, Hashable, Sendable {
    public var minimum: Int64
    public var median: Int64
    public var p99: Int64
    public var maximum: Int64

    enum CodingKeys: String, CodingKey {
        case minimum = "min"
        case median
        case p99
        case maximum = "max"
    }

    /// The four with their names, in order, as text reports show them.
    public var named: [(name: String, nanoseconds: Int64)] {
        [("min", minimum), ("median", median), ("p99", p99), ("max", maximum)]
    }
}
