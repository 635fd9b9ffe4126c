/// A reading of the clocks, passed into a protocol state machine (`ClientSession`, the conformance
/// suite's scripted server) with every event: the time since it started, for timers, latencies and
/// what it observes, and the UNIX time in seconds, for the timestamps the frames carry.
public struct SessionTime: Hashable, Sendable {
    /// The time since the machine started, on a monotonic clock.
    public var elapsed: Duration
    /// The UNIX time in seconds, for timestamps.
    public var unixSeconds: UInt32

    /// A reading of both clocks.
    public init(elapsed: Duration, unixSeconds: UInt32) {
        self.elapsed = elapsed
        self.unixSeconds = unixSeconds
    }
}
