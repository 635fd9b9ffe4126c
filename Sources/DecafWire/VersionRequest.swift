/// VERSION_REQUEST: the client's highest version and its feature flags, BASIC always set (HS-1).
public struct VersionRequest: VersionOffer {
    /// The tag of its TLV field.
    public static let tag = TLVTag.versionRequest
    /// The version offered.
    public var version: ProtocolVersion
    /// The features offered.
    public var features: FeatureFlags

    /// `version` and `features` offered.
    public init(version: ProtocolVersion, features: FeatureFlags) {
        self.version = version
        self.features = features
    }
}
