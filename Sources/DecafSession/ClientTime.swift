/// A reading of the client's clocks, passed into `ClientSession` with every event: the time since
/// the client started, for timers and latencies, and the UNIX time in seconds, for the timestamps
/// the frames carry.
public struct ClientTime: Hashable, Sendable {
    public var elapsed: Duration
    public var unixSeconds: UInt32

    public init(elapsed: Duration, unixSeconds: UInt32) {
        self.elapsed = elapsed
        self.unixSeconds = unixSeconds
    }
}
