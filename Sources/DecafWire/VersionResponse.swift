/// VERSION_RESPONSE: the version the server chose and the features both sides agreed (HS-2).
public struct VersionResponse: VersionOffer {
    /// The tag of its TLV field.
    public static let tag = TLVTag.versionResponse
    /// The version agreed.
    public var version: ProtocolVersion
    /// The features agreed.
    public var features: FeatureFlags

    /// `version` and `features` agreed.
    public init(version: ProtocolVersion, features: FeatureFlags) {
        self.version = version
        self.features = features
    }
}
