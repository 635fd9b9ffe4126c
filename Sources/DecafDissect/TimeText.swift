import Foundation

/// How the dissector writes protocol timestamps: UTC, ISO-8601, to the second.
enum TimeText {
    static func iso8601(_ seconds: UInt32) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }
}
