@testable import DecafDissect
import DecafTestSupport
import Testing

/// The round-trip summary: exact while round trips are few, within 0.1% once the histogram takes
/// over, minimum and maximum always exact.
@Suite("round-trip distribution")
struct RoundTripDistributionTests {
    static func nearestRank(_ values: [Int64], _ percent: Double) -> Int64 {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * percent / 100).rounded(.up)) - 1)]
    }

    static func values(_ count: Int, seed: UInt64) -> [Int64] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in Int64.random(in: 50_000...400_000_000, using: &random) }
    }

    @Test("few round trips: every number exact")
    func exactWhileFew() throws {
        let values = Self.values(RoundTripDistribution.exactLimit, seed: 1)
        var distribution = RoundTripDistribution()
        values.forEach { distribution.record($0) }
        let summary = try #require(distribution.summary)
        #expect(summary == RoundTripSummary(minimum: values.min()!, median: Self.nearestRank(values, 50), p99: Self.nearestRank(values, 99), maximum: values.max()!))
    }

    @Test("many round trips: minimum and maximum exact, median and p99 within 0.1%")
    func histogramWhenMany() throws {
        let values = Self.values(3 * RoundTripDistribution.exactLimit, seed: 2)
        var distribution = RoundTripDistribution()
        values.forEach { distribution.record($0) }
        let summary = try #require(distribution.summary)
        #expect(summary.minimum == values.min() && summary.maximum == values.max())
        for (value, percent) in [(summary.median, 50.0), (summary.p99, 99.0)] {
            let exact = Self.nearestRank(values, percent)
            #expect(abs(value - exact) <= max(512, exact / 1000), "p\(percent): \(value) vs \(exact)")
        }
    }

    @Test("a round trip beyond an hour, or backwards, bends the percentiles but not the extremes")
    func outliers() throws {
        var distribution = RoundTripDistribution()
        for _ in 0...RoundTripDistribution.exactLimit { distribution.record(7_200_000_000_000) }
        distribution.record(-5)
        let summary = try #require(distribution.summary)
        #expect(summary.minimum == -5 && summary.maximum == 7_200_000_000_000)
        #expect(summary.median <= 3_600_000_000_000 * 1001 / 1000)
        #expect(RoundTripDistribution().summary == nil)
    }
}
