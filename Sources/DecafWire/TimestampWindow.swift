/// A receiver's tolerance for the sender's clock (TS-1): frames whose timestamp is more than
/// `seconds` away from `now` are rejected. `now` is passed in, so decoding never reads a clock.
public struct TimestampWindow: Hashable, Sendable {
    /// How far a timestamp may be from `now`, either way (default 60 s).
    public var seconds: UInt32
    /// The receiver's current UNIX time in seconds.
    public var now: UInt32

    /// A window of `seconds` around `now`.
    public init(seconds: UInt32 = 60, now: UInt32) {
        self.seconds = seconds
        self.now = now
    }

    /// True when `timestamp` is within the window.
    public func admits(_ timestamp: UInt32) -> Bool {
        (Int64(timestamp) - Int64(now)).magnitude <= UInt64(seconds)
    }
}
