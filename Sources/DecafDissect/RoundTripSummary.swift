import Foundation

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

    /// The four as text reports show them: `min 0.120 ms, median 0.340 ms, p99 1.200 ms, max 2.000 ms`.
    public var text: String {
        named.map { "\($0.name) \(Self.milliseconds($0.nanoseconds))" }.joined(separator: ", ")
    }

    /// A duration in seconds, to the tenth: `2.0 s`.
    public static func seconds(_ nanoseconds: Int64) -> String {
        String(format: "%.1f s", Double(nanoseconds) / 1e9)
    }

    /// A duration in milliseconds, to the microsecond.
    public static func milliseconds(_ nanoseconds: Int64) -> String {
        String(format: "%.3f ms", Double(nanoseconds) / 1_000_000)
    }
}
