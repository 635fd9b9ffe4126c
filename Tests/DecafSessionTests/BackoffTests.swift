import DecafSession
import Testing

@Suite("Backoff and latency")
struct BackoffTests {
    @Test("exponential delays double and are capped; jitter keeps a wait within the upper half")
    func exponential() {
        var random = SystemRandomNumberGenerator()
        for attempt in 0..<12 {
            let full = min(Duration.seconds(2), .milliseconds(100) * (1 << attempt))
            #expect(ReconnectPolicy.exponential.delay(attempt: attempt, base: .milliseconds(100), cap: .seconds(2)) == full)
            let jittered = ReconnectPolicy.jittered(full, using: &random)
            #expect(jittered >= full / 2 && jittered <= full)
        }
    }

    @Test("fibonacci delays follow 1, 1, 2, 3, 5, 8 times the base")
    func fibonacci() {
        for (attempt, factor) in [1, 1, 2, 3, 5, 8].enumerated() {
            #expect(ReconnectPolicy.fibonacci.delay(attempt: attempt, base: .milliseconds(100), cap: .seconds(60)) == .milliseconds(100) * factor)
        }
        #expect(ReconnectPolicy.none.delay(attempt: 0, base: .seconds(1), cap: .seconds(1)) == nil)
    }

    @Test("latency percentiles")
    func percentiles() throws {
        let summary = try #require(LatencySummary((1...100).map { Duration.milliseconds($0) }))
        #expect(summary.minimum == .milliseconds(1) && summary.maximum == .milliseconds(100))
        #expect(summary.median == .milliseconds(51) && summary.p99 == .milliseconds(99))
        #expect(LatencySummary([]) == nil)
    }
}
