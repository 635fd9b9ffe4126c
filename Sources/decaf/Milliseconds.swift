import Foundation

/// Durations as the command line prints them: milliseconds.
enum Milliseconds {
    static func value(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// `0.42 ms`, with three significant decimals at most.
    static func text(_ duration: Duration) -> String {
        let ms = value(duration)
        return (ms < 10 ? String(format: "%.3f", ms) : ms < 100 ? String(format: "%.2f", ms) : String(format: "%.1f", ms)) + " ms"
    }
}
