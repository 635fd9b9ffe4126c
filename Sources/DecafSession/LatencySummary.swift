/// Minimum, median, 99th percentile and maximum of a set of latencies.
public struct LatencySummary: Hashable, Sendable {
    /// How many samples.
    public var count: Int
    /// The smallest.
    public var minimum: Duration
    /// The middle one.
    public var median: Duration
    /// The 99th percentile.
    public var p99: Duration
    /// The largest.
    public var maximum: Duration

    /// The summary of `samples`, or nil if there are none.
    public init?(_ samples: [Duration]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Duration {
            sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
        count = sorted.count
        minimum = sorted[0]
        median = percentile(0.5)
        p99 = percentile(0.99)
        maximum = sorted[sorted.count - 1]
    }
}
