#if canImport(Glibc)
import Glibc
#endif

/// How many connections the proxy carries at once within this process's file descriptor limit:
/// each takes two descriptors (the client's and the upstream's), and a reserve is kept for the
/// listeners, the event loops, the capture file and the control API. At the limit the proxy stops
/// accepting, so further clients wait in the listen queue until a connection closes, instead of
/// being accepted and dropped because no upstream socket can be opened. Pure, but for reading the
/// limit.
struct DescriptorBudget: Sendable {
    /// Descriptors kept for everything but the connections.
    static let reserve = 64

    /// The soft limit (`ulimit -n`) it was computed from, and the connections it allows.
    let limit: Int
    let connections: Int

    init(limit: Int) {
        self.limit = limit
        connections = max(1, (limit - Self.reserve) / 2)
    }

    /// The budget of this process's soft RLIMIT_NOFILE.
    static var current: DescriptorBudget {
        var limits = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return DescriptorBudget(limit: 1024) }
        return DescriptorBudget(limit: Int(clamping: limits.rlim_cur))
    }

    /// What the proxy says, once, when it reaches the budget or the system refuses it a descriptor.
    var reached: String {
        "decaf proxy: carrying \(connections) connections, the most its \(limit) file descriptors allow (ulimit -n, two a connection); "
            + "further clients wait in the listen queue until a connection closes. Raise the limit (ulimit -n 65536) before starting the proxy to carry more"
    }
}
