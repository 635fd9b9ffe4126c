/// The two ends of a proxied connection: the client that connected to the proxy, and the server
/// the proxy connected to.
enum ProxySide: Hashable, Sendable {
    case client, server

    var other: ProxySide { self == .client ? .server : .client }
}
