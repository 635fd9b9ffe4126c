import Foundation

/// Durations as reports print them: milliseconds for people and JSON, seconds for JUnit.
enum DurationText {
    static func milliseconds(_ duration: Duration) -> Double {
        duration / .milliseconds(1)
    }

    /// `12.345 ms` (with `decimals` digits after the point).
    static func milliseconds(_ duration: Duration, decimals: Int) -> String {
        String(format: "%.\(decimals)f ms", milliseconds(duration))
    }

    /// `1.234`, seconds with three decimals.
    static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", milliseconds(duration) / 1000)
    }
}
