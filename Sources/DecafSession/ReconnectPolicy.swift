/// How a client waits before reconnecting after its connection drops or cannot be made.
public enum ReconnectPolicy: String, Sendable, CaseIterable {
    /// base × 2^attempt, capped, with jitter.
    case exponential
    /// base × fib(attempt + 1), capped, with jitter.
    case fibonacci
    /// Do not reconnect.
    case none

    /// The full wait before reconnect attempt `attempt` (0 for the first), capped, or nil for
    /// `none`.
    public func delay(attempt: Int, base: Duration, cap: Duration) -> Duration? {
        switch self {
        case .none: nil
        case .exponential: min(cap, base * (1 << min(max(attempt, 0), 30)))
        case .fibonacci: min(cap, base * Self.fibonacci(attempt + 1))
        }
    }

    /// The wait drawn uniformly from the upper half of `full`, so clients that lost their
    /// connections together do not come back together.
    public static func jittered(_ full: Duration, using random: inout some RandomNumberGenerator) -> Duration {
        full * Double.random(in: 0.5...1, using: &random)
    }

    private static func fibonacci(_ n: Int) -> Int {
        var (a, b) = (1, 1)
        for _ in 1..<max(1, min(n, 60)) { (a, b) = (b, a + b) }
        return a
    }
}
