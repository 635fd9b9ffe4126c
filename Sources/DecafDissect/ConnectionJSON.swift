import DecafCapture

/// A connection as `--json` shows it on every record from a capture.
public struct ConnectionJSON: Codable, Hashable, Sendable {
    public var index: Int
    /// `address:port` of the side that opened the connection.
    public var client: String
    public var server: String

    public init(_ connection: TCPConnection) {
        index = connection.index
        client = connection.client.description
        server = connection.server.description
    }
}
