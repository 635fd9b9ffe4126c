/// The timers a client session asks its shell to run; scheduling one again replaces it.
public enum ClientTimer: Hashable, Sendable, CaseIterable {
    /// The next frame whose ACK is overdue (EX-7).
    case retransmit
    /// The next heartbeat, and the check that the server is still alive.
    case heartbeat
    /// The next connection attempt after a backoff.
    case reconnect
    /// The end of the wait for read receipts after the last message was acknowledged.
    case linger
}
