/// The value both version TLVs share: u16 version (major << 8 | minor), u16 feature flags.
public protocol VersionOffer: Hashable, Sendable {
    /// The version offered or agreed.
    var version: ProtocolVersion { get }
    /// The features offered or agreed.
    var features: FeatureFlags { get }
    /// An offer of `version` and `features`.
    init(version: ProtocolVersion, features: FeatureFlags)
    /// The tag this offer travels under.
    static var tag: TLVTag { get }
}

extension VersionOffer {
    /// Bytes of the value.
    public static var valueLength: Int { 4 }

    /// The offer in `value`, or nil unless `value` is exactly 4 bytes.
    public init?(value: some Collection<UInt8>) {
        guard value.count == Self.valueLength else { return nil }
        let bytes = Array(value)
        self.init(
            version: ProtocolVersion(packed: UInt16(bytes[0]) << 8 | UInt16(bytes[1])),
            features: FeatureFlags(rawValue: UInt16(bytes[2]) << 8 | UInt16(bytes[3]))
        )
    }

    /// The TLV's value: the packed version and the features, each a big-endian u16.
    public var value: [UInt8] {
        var out: [UInt8] = []
        out.appendBigEndian(version.packed)
        out.appendBigEndian(features.rawValue)
        return out
    }

    /// The TLV field carrying this offer.
    public var field: TLVField { TLVField(tag: Self.tag, bytes: value) }
}
