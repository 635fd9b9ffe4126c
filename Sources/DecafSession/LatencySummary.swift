/// Minimum, median, 99th percentile and maximum of a set of latencies.
public struct LatencySummary: Hashable, Sendable {
    public var count: Int
    public var minimum: Duration
    public var median: Duration
    public var p99: Duration
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
