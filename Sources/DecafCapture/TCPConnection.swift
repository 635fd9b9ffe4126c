/// A TCP connection seen in a capture: numbered in the order its first payload byte appeared, with
/// the client being the side that sent the first SYN (or, without one, the first payload byte).
public struct TCPConnection: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var client: TCPEndpoint
    public var server: TCPEndpoint

    public init(index: Int, client: TCPEndpoint, server: TCPEndpoint) {
        self.index = index
        self.client = client
        self.server = server
    }

    public var description: String { "#\(index) \(client) ⇄ \(server)" }
}

/// Which way bytes flow on a connection.
public enum TCPDirection: String, Sendable, Hashable, CaseIterable, Codable {
    case clientToServer = "client-to-server"
    case serverToClient = "server-to-client"

    /// The other way.
    public var reversed: TCPDirection { self == .clientToServer ? .serverToClient : .clientToServer }

    /// `C→S` or `S→C`, for one-line summaries.
    public var arrow: StaticString { self == .clientToServer ? "C→S" : "S→C" }
}
