import Foundation

/// Durations as the command line prints them: milliseconds.
enum Milliseconds {
    static func value(_ duration: Duration) -> Double {
        duration / .milliseconds(1)
    }

    /// `0.42 ms`, with three significant decimals at most.
    static func text(_ duration: Duration) -> String {
        let ms = value(duration)
        return (ms < 10 ? String(format: "%.3f", ms) : ms < 100 ? String(format: "%.2f", ms) : String(format: "%.1f", ms)) + " ms"
    }
}
