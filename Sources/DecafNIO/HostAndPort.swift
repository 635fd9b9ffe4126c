/// A host and port as people write them: `127.0.0.1:7447`, or `[::1]:7447` for an IPv6 address.
public struct HostAndPort: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
