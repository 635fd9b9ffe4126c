import DecafWire

/// What the suite assumes of a target before it talks to it: the brief's defaults unless the
/// command line says otherwise. The catalog is built for a profile, so its frames fit the
/// target's version and limits.
public struct ConformanceProfile: Hashable, Sendable {
    /// The target's own version: its major and highest minor (VER-1, VER-2).
    public var version: ProtocolVersion = .v1_0
    /// The target's body limit (FRAME-2, ZLIB-2).
    public var bodyLimit: Int = DecodeOptions.defaultBodyLimit
    /// The target's TLV nesting limit (TLV-2).
    public var depthLimit: Int = 4
    /// Whether the target is configured to allow a tag repeated within one sequence (TLV-3).
    public var allowsDuplicateTags = false
    /// How soon an ACK must come for `exchange.ack.prompt`: well inside a client's retransmission
    /// timer (EX-7).
    public var ackDeadline: Duration = .milliseconds(500)
    /// The target's idle timeout (EX-6). Unset, the idle case is not run: the brief's 90 s is too
    /// long to wait for by default.
    public var idleTimeout: Duration?

    public init() {}

    /// How the target decodes what it receives, as far as the suite knows: its version and limits.
    public var decodeOptions: DecodeOptions {
        DecodeOptions(bodyLimit: bodyLimit, version: version, tlv: TLVOptions(depthLimit: depthLimit, allowsDuplicateTags: allowsDuplicateTags))
    }
}
