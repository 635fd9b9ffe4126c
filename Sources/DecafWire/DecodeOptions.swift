/// What a receiver accepts: its limits, its version and how strictly it parses bodies. The
/// defaults are the brief's.
public struct DecodeOptions: Hashable, Sendable {
    /// The brief's default body limit, 10 MiB.
    public static let defaultBodyLimit = 10_485_760

    /// Largest body_length accepted, and largest body after inflating (FRAME-2, ZLIB-2).
    public var bodyLimit: Int
    /// The receiver's own version: frames must have its major and at most its minor (VER-1, VER-2).
    public var version: ProtocolVersion
    /// How bodies are parsed: the depth limit and whether a tag may repeat (TLV-2, TLV-3).
    public var tlv: TLVOptions
    /// When set, frames outside the window are rejected (TS-1); nil accepts any timestamp.
    public var timestampWindow: TimestampWindow?
    /// Whether frames with encrypt_type 2 (AES256) are accepted with their body left opaque. A
    /// receiver that cannot decrypt rejects them (FRAME-5); a dissector shows them.
    public var acceptsEncryptedBodies: Bool
    /// Whether the checksum is verified (CRC-2). Only a deliberately faulty receiver (the reference
    /// peer's `accept-bad-crc` fault) turns this off.
    public var verifiesChecksum: Bool

    /// How Decaf's clients and tools read what a server sends: any minor of major 1 (a server
    /// answers in the version the handshake agreed, which a client offering the newest minor
    /// cannot know in advance), and encrypted bodies kept opaque rather than refused.
    public static let observer = DecodeOptions(version: ProtocolVersion(major: 1, minor: .max), acceptsEncryptedBodies: true)

    /// A receiver's options; every default is the brief's.
    public init(
        bodyLimit: Int = DecodeOptions.defaultBodyLimit,
        version: ProtocolVersion = .v1_0,
        tlv: TLVOptions = TLVOptions(),
        timestampWindow: TimestampWindow? = nil,
        acceptsEncryptedBodies: Bool = false,
        verifiesChecksum: Bool = true
    ) {
        self.bodyLimit = bodyLimit
        self.version = version
        self.tlv = tlv
        self.timestampWindow = timestampWindow
        self.acceptsEncryptedBodies = acceptsEncryptedBodies
        self.verifiesChecksum = verifiesChecksum
    }
}
