/// VERSION_RESPONSE: the version the server chose and the features both sides agreed (HS-2).
public struct VersionResponse: VersionOffer {
    public static let tag = TLVTag.versionResponse
    public var version: ProtocolVersion
    public var features: FeatureFlags

    public init(version: ProtocolVersion, features: FeatureFlags) {
        self.version = version
        self.features = features
    }
}
