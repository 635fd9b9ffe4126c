/// VERSION_REQUEST: the client's highest version and its feature flags, BASIC always set (HS-1).
public struct VersionRequest: VersionOffer {
    public static let tag = TLVTag.versionRequest
    public var version: ProtocolVersion
    public var features: FeatureFlags

    public init(version: ProtocolVersion, features: FeatureFlags) {
        self.version = version
        self.features = features
    }
}
