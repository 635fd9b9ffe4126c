import DecafCapture
import DecafTestSupport
import Foundation
import Testing

/// Capture and protocol times are written digit by digit; they must read exactly as Foundation's
/// ISO-8601 style writes them, which is what `--json` has always printed.
@Suite("Capture times in ISO-8601")
struct CaptureTimeTests {
    static func foundation(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }

    static let edges: [Int64] = [
        0, -1, 1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_400, 1_700_000_000,
        Int64(UInt32.max), -62_135_596_800, -62_135_596_801, 253_402_300_799, 253_402_300_800, -30_610_224_000,
        68_256_000_000, .max, .min,
    ]

    @Test("every time from year 1 to 9999, leap days and both ends included, reads as Foundation writes it")
    func sameAsFoundation() {
        var generator = SeededGenerator(seed: 7)
        let samples = Self.edges + (0..<20_000).map { _ in Int64.random(in: -62_135_596_800...253_402_300_799, using: &generator) }
        let differing = samples.filter { CaptureTime.iso8601(seconds: $0) != Self.foundation($0) }
        #expect(differing.map { "\($0): \(CaptureTime.iso8601(seconds: $0)) vs \(Self.foundation($0))" } == [])
    }

    @Test("packet times carry six digits of microseconds, also beyond the years Decaf writes itself")
    func microseconds() {
        #expect(CaptureTime(seconds: 1_700_000_000, nanoseconds: 4_000_500).description == "2023-11-14T22:13:20.004000Z")
        #expect(CaptureTime(seconds: 0, nanoseconds: 999_999_999).description == "1970-01-01T00:00:00.999999Z")
        #expect(CaptureTime(seconds: .max, nanoseconds: 7_000).description == Self.foundation(.max).dropLast() + ".000007Z")
        #expect(CaptureTime(seconds: 5, nanoseconds: 4_000_000_000).description == "1970-01-01T00:00:05.4000000Z")
    }
}
