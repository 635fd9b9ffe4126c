import DecafCapture
import DecafJSON

/// The time of day the last summary line showed, and its text: a capture's frames come many to a
/// packet, so most lines show the time the line before showed, and copying its 15 bytes costs
/// less than writing them digit by digit.
struct TimeOfDayCache {
    private var time: CaptureTime?
    private var text = SIMD16<UInt8>()

    /// Appends `time`'s time of day (`HH:MM:SS.micro`).
    mutating func write(_ time: CaptureTime, to out: OutputBuffer) {
        if time != self.time {
            withUnsafeMutableBytes(of: &text) { time.writeTimeOfDay(to: $0.assumingMemoryBound(to: UInt8.self)) }
            self.time = time
        }
        withUnsafeBytes(of: text) { out.append(UnsafeRawBufferPointer(start: $0.baseAddress, count: min(CaptureTime.timeOfDayLength, $0.count))) }
    }
}
