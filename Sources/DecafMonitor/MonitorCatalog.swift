import DecafWire

/// The requirements `decaf monitor` judges from a capture, and for which end: what `decaf conform
/// coverage` shows in its monitor column, beside the suites that judge them by driving an end.
public enum MonitorCatalog {
    /// The rules of `ConnectionMonitor`, by requirement: the ends each may fail.
    static let rules: [RequirementID: Set<MonitorEnd>] = [
        .ex1: [.client, .server], .ex2: [.client, .server], .ex3: [.client, .server], .ex4: [.client, .server],
        .ex5: [.client, .server], .ex7: [.client, .server], .seq1: [.client, .server], .replay1: [.client, .server], .hs1: [.client], .hs2: [.server],
        .reconnect1: [.client],
        // A checksum no receiver may take is its sender's (CRC-1) and, acknowledged, its receiver's.
        .crc1: [.client, .server],
    ]

    /// Errors no legal receiver avoids, whatever limits it sets: the rule each names is judged for
    /// the frame's sender, and for a receiver that acknowledges the frame.
    static let refusals: [WireError.Fault] = [
        .badMagic(found: 0), .unknownEncryption(EncryptType(rawValue: 3)), .unknownCompression(CompressType(rawValue: 2)),
        .checksumMismatch(stored: 0, computed: 1), .malformedZlibStream, .tlvTruncated(remaining: 1),
        .tlvTooDeep(depth: TLVOptions.maximumDepthLimit + 1, limit: TLVOptions.maximumDepthLimit),
    ]

    /// How binding a requirement is for the ends the monitor judges: HS-1 and RECONNECT-1 are
    /// SHOULDs, every other it judges a MUST.
    public static func level(of requirement: RequirementID) -> MonitorVerdict.Level {
        requirement == .hs1 || requirement == .reconnect1 ? .recommended : .required
    }

    /// Every requirement judged, with the ends it may fail.
    public static var judged: [RequirementID: Set<MonitorEnd>] {
        var judged = rules
        for fault in refusals { judged[WireError(fault, offset: 0).requirement, default: []].formUnion([.client, .server]) }
        return judged
    }
}
