import DecafCapture

/// One end of a connection: the client (which opened it) or the server.
public enum MonitorEnd: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case client
    case server

    /// The end that sends in `direction`.
    public init(sending direction: TCPDirection) {
        self = direction == .clientToServer ? .client : .server
    }

    /// The other end.
    public var peer: MonitorEnd { self == .client ? .server : .client }

    public static func < (lhs: MonitorEnd, rhs: MonitorEnd) -> Bool { lhs == .client && rhs == .server }
}
