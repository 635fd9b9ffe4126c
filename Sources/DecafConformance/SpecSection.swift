import DecafWire

/// A section of `Specs/decaf-wire-v1.md`, by which reports group their cases.
public enum SpecSection: Int, CaseIterable, Sendable, Hashable, Comparable, Codable {
    case frames = 1, checksum, version, sequence, tlv, compression, exchange

    /// The section holding `requirement`.
    public init(_ requirement: RequirementID) {
        switch requirement {
        case .frame1, .frame2, .frame3, .frame4, .frame5, .frame6: self = .frames
        case .crc1, .crc2, .crc3: self = .checksum
        case .ver1, .ver2, .ver3: self = .version
        case .seq1, .seq2, .ts1, .session1, .replay1: self = .sequence
        case .tlv1, .tlv2, .tlv3, .tlv4: self = .tlv
        case .zlib1, .zlib2, .zlib3: self = .compression
        case .hs1, .hs2, .ex1, .ex2, .ex3, .ex4, .ex5, .ex6, .ex7, .reconnect1: self = .exchange
        }
    }

    /// The section's number and title, as the spec heads it.
    public var title: String {
        switch self {
        case .frames: "1. Frames"
        case .checksum: "2. Checksum"
        case .version: "3. Version"
        case .sequence: "4. Sequence, timestamp, session"
        case .tlv: "5. Body: TLV"
        case .compression: "6. Compression"
        case .exchange: "7. Handshake and exchange"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
