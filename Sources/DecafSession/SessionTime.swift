/// A reading of the clocks, passed into a protocol state machine (`ClientSession`, the conformance
/// suite's scripted server) with every event: the time since it started, for timers, latencies and
/// what it observes, and the UNIX time in seconds, for the timestamps the frames carry.
public struct SessionTime: Hashable, Sendable {
    public var elapsed: Duration
    public var unixSeconds: UInt32

    public init(elapsed: Duration, unixSeconds: UInt32) {
        self.elapsed = elapsed
        self.unixSeconds = unixSeconds
    }
}
