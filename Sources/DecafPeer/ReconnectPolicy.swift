import NIOCore

/// How a client waits before reconnecting after its connection drops.
public enum ReconnectPolicy: String, Sendable, CaseIterable {
    /// base × 2^attempt, capped, with jitter.
    case exponential
    /// base × fib(attempt + 1), capped, with jitter.
    case fibonacci
    /// Do not reconnect.
    case none

    /// The wait before reconnect attempt `attempt` (0 for the first), or nil for `none`. Jitter
    /// draws it uniformly from the upper half of the capped delay, so clients that lost their
    /// connections together do not come back together.
    public func delay(attempt: Int, base: Duration, cap: Duration, using random: inout some RandomNumberGenerator) -> Duration? {
        let factor: Int
        switch self {
        case .none: return nil
        case .exponential: factor = 1 << min(attempt, 30)
        case .fibonacci: factor = Self.fibonacci(attempt + 1)
        }
        let full = min(cap, base * factor)
        let nanoseconds = TimeAmount(full).nanoseconds
        guard nanoseconds > 1 else { return full }
        return .nanoseconds(Int64.random(in: (nanoseconds / 2)...nanoseconds, using: &random))
    }

    private static func fibonacci(_ n: Int) -> Int {
        var (a, b) = (1, 1)
        for _ in 1..<max(1, min(n, 60)) { (a, b) = (b, a + b) }
        return a
    }
}
