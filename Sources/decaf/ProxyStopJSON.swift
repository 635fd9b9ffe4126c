import DecafProxy

/// `decaf proxy --json`: what the proxy carried, printed when a signal stops it.
struct ProxyStopJSON: Encodable {
    var signal: Int32
    var counts: ProxyCounts
}
