/// A protocol version: header bytes 4 and 5, and the u16 `major << 8 | minor` that the version
/// handshake TLVs carry.
public struct ProtocolVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The major version: a receiver refuses another (VER-1).
    public var major: UInt8
    /// The minor version: a receiver accepts up to its own (VER-2).
    public var minor: UInt8

    /// Version `major`.`minor`.
    public init(major: UInt8, minor: UInt8) {
        self.major = major
        self.minor = minor
    }

    /// The version as the handshake TLVs carry it.
    public init(packed: UInt16) {
        self.init(major: UInt8(packed >> 8), minor: UInt8(truncatingIfNeeded: packed))
    }

    /// `1.0`: major and minor, each 0-255, joined by a dot; nil for anything else.
    public init?(dotted text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = UInt8(parts[0]), let minor = UInt8(parts[1]) else { return nil }
        self.init(major: major, minor: minor)
    }

    /// The version as the u16 of a VERSION_REQUEST or VERSION_RESPONSE: major << 8 | minor.
    public var packed: UInt16 { UInt16(major) << 8 | UInt16(minor) }

    /// Version 1.0, what a client sends before the handshake completes (VER-3).
    public static let v1_0 = ProtocolVersion(major: 1, minor: 0)

    /// Versions in order: by major, then minor.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.packed < rhs.packed }

    /// `1.0`.
    public var description: String { "\(major).\(minor)" }
}
