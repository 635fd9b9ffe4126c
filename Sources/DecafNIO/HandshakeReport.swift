import DecafWire

/// What a version handshake (HS-1, HS-2) came to.
public struct HandshakeReport: Hashable, Sendable {
    /// The version and features the request offered.
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
    /// Whether no whole answer came within the timeout.
    public var timedOut = false
    /// The first bytes the server sent (its first read, up to 256 bytes).
    public var firstBytes: [UInt8] = []
    /// Why the connection broke, when it did (a reset).
    public var broken: String?
    /// A frame the server had begun and not finished when the client gave up waiting.
    public var unfinished: UnfinishedFrame?

    /// What the server sent instead of frames, when its first bytes are not Decaf's.
    public var foreign: ForeignProtocol? { ForeignProtocol(recognising: firstBytes) }

    /// A report of a handshake offering `offered`, before anything came back.
    public init(offered: VersionRequest) {
        self.offered = offered
    }

    /// What came instead of a VERSION_RESPONSE, in a few words, for a handshake that got none.
    public var insteadOfResponse: String {
        if let foreign { return "\(foreign), not Decaf frames" }
        if let protocolError { return "a reply that breaks the protocol, \(protocolError)" }
        if let error { return "ERROR \(ErrorCode(rawValue: error.code)?.name ?? String(error.code)): \(error.reason)" }
        if closedByServer { return acknowledged ? "an ACK, then the close" : "the close of the connection" }
        return acknowledged ? "only an ACK" : "nothing"
    }

    /// Whether the server gave a sign of speaking Decaf: a response, an ACK, an ERROR, or frames
    /// that break the protocol (a broken Decaf server is still one).
    public var speaksDecaf: Bool {
        response != nil || acknowledged || error != nil || (protocolError != nil && foreign == nil && !endedInsideFrame)
    }

    /// The only error is the stream ending inside a frame: when the client gave up waiting, the
    /// frame begun was never finished.
    private var endedInsideFrame: Bool { protocolError?.code == .truncatedFrame }

    /// Whether nothing came back at all, neither a byte nor a close: the server may not be reading.
    public var isSilent: Bool { firstBytes.isEmpty && !closedByServer && broken == nil && (protocolError == nil || endedInsideFrame) }

    /// Why `target` cannot be talked to, in one paragraph a user can act on, when it gave no sign of
    /// speaking Decaf: what answered instead, a close or a reset without a byte, a frame begun and
    /// never finished, or nothing at all within `timeout`. Nil when it speaks Decaf.
    public func unusable(target: String, timeout: Duration) -> String? {
        guard !speaksDecaf else { return nil }
        if let foreign {
            return "\(target) answered the VERSION_REQUEST with \(foreign), not with Decaf frames. Is \(target) the port of a Decaf server?"
        }
        if !firstBytes.isEmpty {
            let begun = unfinished?.description ?? "began a frame"
            return "\(target) \(begun) in answer to the VERSION_REQUEST (its first \(firstBytes.count) byte\(firstBytes.count == 1 ? "" : "s"): \(Hex.spaced(firstBytes.prefix(16)))) "
                + "and did not finish it within \(timeout). A server that writes this slowly, or stops in the middle of a frame, cannot be talked to; "
                + "if it is only slow, give it more time with --timeout."
        }
        if let broken {
            return "\(target) accepted the connection, then reset it without sending a byte (\(broken)). "
                + "Is a Decaf server listening there, or a proxy that cannot reach one?"
        }
        if closedByServer {
            return "\(target) accepted the connection and closed it without sending a byte, in answer to the VERSION_REQUEST. "
                + "Is a Decaf server listening there, or a proxy that cannot reach one?"
        }
        return "\(target) accepted the connection but sent nothing within \(timeout) in answer to the VERSION_REQUEST. "
            + "Is it a Decaf server, and is it reading? A server that never reads its socket, or is stopped (SIGSTOP, a debugger), looks like this; "
            + "if it is only slow, give it more time with --timeout."
    }

    /// True when the server answered with the client's major and acknowledged the request.
    public var succeeded: Bool {
        guard let response, error == nil, protocolError == nil else { return false }
        return acknowledged && response.version.major == offered.version.major
    }
}
