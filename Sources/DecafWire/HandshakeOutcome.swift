/// The server's answer to a version request (HS-2): the response to send, and whether to close
/// the connection once it is sent (different majors).
public struct HandshakeOutcome: Hashable, Sendable {
    /// The VERSION_RESPONSE to send: the lower minor and the features both sides have.
    public var response: VersionResponse
    /// Whether to close once the response is sent: the majors differ.
    public var closesConnection: Bool

    /// The answer `response`, closing after it when `closesConnection`.
    public init(response: VersionResponse, closesConnection: Bool) {
        self.response = response
        self.closesConnection = closesConnection
    }
}
