import DecafDissect
import DecafTestSupport
import Foundation
import Testing

/// `--stats --json` in bounded memory: round trips past the limit are counted, not kept, and said.
@Suite("capture statistics limits")
struct CaptureStatisticsLimitTests {
    @Test("round trips past the limit are counted in the summary and as left out, not kept")
    func roundTripLimit() throws {
        let bytes = try #require(FileManager.default.contents(atPath: FixturePaths.fixtures.appending(path: "captures/session-any.pcapng").path))
        let events = CaptureDissection(Array(bytes)).events
        var all = CaptureStatistics(keepsEachRoundTrip: true)
        var limited = CaptureStatistics(keepsEachRoundTrip: true, roundTripLimit: 2)
        for event in events {
            all.add(event)
            limited.add(event)
        }
        try #require(all.roundTripCount > 2)
        #expect(limited.roundTrips == Array(all.roundTrips.prefix(2)))
        #expect(limited.roundTripsLeftOut == all.roundTripCount - 2 && all.roundTripsLeftOut == 0)
        #expect(limited.roundTripCount == all.roundTripCount && limited.roundTripSummary == all.roundTripSummary)
    }
}
