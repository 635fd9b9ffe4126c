import Histogram

/// Durations (the ACK round trips of a capture, the monitor's handshake and reconnect times),
/// summarised in bounded memory: kept exactly while there are
/// few (so a small capture's median and 99th percentile are exact, and cost nothing to set up),
/// then in an HdrHistogram of fixed size with 3 significant digits from a microsecond up to an
/// hour (within 0.1%, or half a microsecond below a millisecond; a longer round trip counts as an
/// hour in the percentiles). The minimum and maximum are always exact.
public struct RoundTripDistribution: Sendable {
    /// Round trips kept exactly before the histogram takes over.
    public static let exactLimit = 4096
    static let longestTracked: UInt64 = 3600 * 1_000_000_000

    private var exact: [Int64] = []
    private var histogram: Histogram<UInt64>?
    private var shortest = Int64.max
    /// Durations recorded.
    public private(set) var count = 0
    private var longest = Int64.min

    public init() {}

    public mutating func record(_ nanoseconds: Int64) {
        count += 1
        shortest = min(shortest, nanoseconds)
        longest = max(longest, nanoseconds)
        // Matched, not compared with nil: a comparison copies the histogram, a reference count
        // per round trip.
        if case .none = histogram {
            if exact.count < Self.exactLimit {
                exact.append(nanoseconds)
                return
            }
            histogram = Histogram(lowestDiscernibleValue: 1000, highestTrackableValue: Self.longestTracked, numberOfSignificantValueDigits: .three)
            exact.forEach { add($0) }
            exact = []
        }
        add(nanoseconds)
    }

    /// A damaged capture's clock can run backwards; such a span counts as 0 in the percentiles.
    private mutating func add(_ nanoseconds: Int64) {
        _ = histogram?.record(min(UInt64(max(0, nanoseconds)), Self.longestTracked))
    }

    /// The summary; nil before the first round trip.
    public var summary: RoundTripSummary? {
        guard shortest <= longest else { return nil }
        return RoundTripSummary(minimum: shortest, median: percentile(50), p99: percentile(99), maximum: longest)
    }

    /// The nearest-rank percentile: exact from the kept round trips, else from the histogram.
    private func percentile(_ percent: Double) -> Int64 {
        if let histogram {
            return min(longest, max(shortest, Int64(clamping: histogram.valueAtPercentile(percent))))
        }
        let sorted = exact.sorted()
        let rank = Int((Double(sorted.count) * percent / 100).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
