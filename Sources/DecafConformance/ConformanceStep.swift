/// One thing a case does on its connection, in order.
public enum ConformanceStep: Hashable, Sendable {
    /// Writes bytes to the target.
    case send(Transmission)
    /// Ends the case's side of the stream (a TCP half-close): the target sees the stream end.
    case endStream
    /// Waits for what the target must do, and judges it.
    case expect(Expectation)
}
