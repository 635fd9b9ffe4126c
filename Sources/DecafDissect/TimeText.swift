import DecafCapture

/// How the dissector writes protocol timestamps: UTC, ISO-8601, to the second.
enum TimeText {
    static func iso8601(_ seconds: UInt32) -> String {
        CaptureTime.iso8601(seconds: Int64(seconds))
    }
}
