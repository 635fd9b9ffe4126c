import DecafWire

/// What the target said of itself in the run's opening handshake: its version and features, which
/// the handshake cases expect it to answer with (HS-2). When the opening handshake fails, the
/// profile's version and every known feature are assumed, and `note` says so.
public struct TargetIdentity: Hashable, Sendable {
    public var version: ProtocolVersion
    public var features: FeatureFlags
    /// How the identity was learned.
    public var note: String

    public init(version: ProtocolVersion, features: FeatureFlags, note: String) {
        self.version = version
        self.features = features
        self.note = note
    }

    /// What the target must answer to `request`.
    func answer(to request: VersionRequest) -> HandshakeOutcome {
        VersionNegotiator(version: version, features: features).respond(to: request)
    }
}
