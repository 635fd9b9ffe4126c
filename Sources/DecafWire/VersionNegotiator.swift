/// The server side of the version handshake (HS-2), as a pure function of what each side supports.
public struct VersionNegotiator: Hashable, Sendable {
    /// The server's own version: its major and highest minor.
    public var version: ProtocolVersion
    /// The features the server supports.
    public var features: FeatureFlags

    /// A server of `version` with `features` (by default 1.0 and every flag the brief knows).
    public init(version: ProtocolVersion = .v1_0, features: FeatureFlags = .known) {
        self.version = version
        self.features = features
    }

    /// What the server answers to `request`.
    ///
    /// Same major: the lower of the two minors and the features both sides support (bits the brief
    /// does not define are never echoed). Different major: the server's own version, no features,
    /// and the server closes the connection after sending the response.
    public func respond(to request: VersionRequest) -> HandshakeOutcome {
        guard request.version.major == version.major else {
            return HandshakeOutcome(response: VersionResponse(version: version, features: []), closesConnection: true)
        }
        let agreed = ProtocolVersion(major: version.major, minor: min(version.minor, request.version.minor))
        let features = request.features.intersection(features).intersection(.known)
        return HandshakeOutcome(response: VersionResponse(version: agreed, features: features), closesConnection: false)
    }
}
