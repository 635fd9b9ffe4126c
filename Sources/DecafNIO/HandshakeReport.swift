import DecafWire

/// What a version handshake (HS-1, HS-2) came to.
public struct HandshakeReport: Hashable, Sendable {
    public var offered: VersionRequest
    /// The server's answer, if one came.
    public var response: VersionResponse?
    /// Whether the request was acknowledged (EX-1).
    public var acknowledged = false
    /// From sending the request to receiving the response.
    public var roundTrip: Duration?
    /// An ERROR TLV the server sent instead.
    public var error: ErrorReport?
    /// A protocol error in what the server sent.
    public var protocolError: WireError?
    /// Whether the server closed the connection.
    public var closedByServer = false
    public var timedOut = false

    public init(offered: VersionRequest) {
        self.offered = offered
    }

    /// What came instead of a VERSION_RESPONSE, in a few words, for a handshake that got none.
    public var insteadOfResponse: String {
        if let protocolError { return "a reply that breaks the protocol, \(protocolError)" }
        if let error { return "ERROR \(ErrorCode(rawValue: error.code)?.name ?? String(error.code)): \(error.reason)" }
        if closedByServer { return acknowledged ? "an ACK, then the close" : "the close of the connection" }
        return acknowledged ? "only an ACK" : "nothing"
    }

    /// True when the server answered with the client's major and acknowledged the request.
    public var succeeded: Bool {
        guard let response, error == nil, protocolError == nil else { return false }
        return acknowledged && response.version.major == offered.version.major
    }
}
