/// The server's answer to a version request (HS-2): the response to send, and whether to close
/// the connection once it is sent (different majors).
public struct HandshakeOutcome: Hashable, Sendable {
    public var response: VersionResponse
    public var closesConnection: Bool

    public init(response: VersionResponse, closesConnection: Bool) {
        self.response = response
        self.closesConnection = closesConnection
    }
}
