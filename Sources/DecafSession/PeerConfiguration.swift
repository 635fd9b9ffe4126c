import DecafWire

/// What the reference peer supports and how it behaves. The defaults are the brief's.
public struct PeerConfiguration: Sendable {
    /// The peer's own version: its major and highest minor.
    public var version: ProtocolVersion = .v1_0
    /// The features the peer supports.
    public var features: FeatureFlags = .known
    /// The largest body taken, before and after inflating (FRAME-2, ZLIB-2).
    public var bodyLimit: Int = DecodeOptions.defaultBodyLimit
    /// The deepest container nesting taken (TLV-2).
    public var depthLimit: Int = 4
    /// Whether a tag repeated within one sequence is taken (TLV-3 lets a receiver be configured so).
    public var allowsDuplicateTags = false
    /// When set, frames whose timestamp is farther than this from the peer's clock are refused
    /// (TS-1). Off by default.
    public var timestampWindow: UInt32?
    /// How long the peer remembers a frame to recognise a repeat (REPLAY-1), in seconds.
    public var replayWindow: UInt32 = 60
    /// How many frames it remembers at most, over all connections; older ones are forgotten first,
    /// so clients cannot grow the peer's memory without bound.
    public var replayMemoryLimit: Int = 262_144
    /// Delay before a read receipt is sent for a delivered DATA frame (EX-4).
    public var readReceiptDelay: Duration = .zero
    /// A connection that sends nothing for this long is closed (EX-6).
    public var idleTimeout: Duration = .seconds(90)
    /// Connections beyond this many are closed as soon as they are accepted.
    public var maxConnections: Int = 1024
    /// A client whose unsent replies pass this many bytes is not read from until they drain.
    public var outboundHighWaterMark: Int = 1 << 20
    /// The kernel send buffer of each connection (SO_SNDBUF); nil leaves the system's default.
    public var socketSendBufferSize: Int?
    /// Whether a frame whose header breaks a rule is refused from its header, or only once its
    /// body is in or the stream ends; the brief allows both, except for a body too large (FRAME-2).
    public var refusesFromHeader = true
    /// Choices the brief leaves a server, made; none by default.
    public var choices: Set<PeerChoice> = []
    /// Ways to misbehave on purpose; none by default.
    public var faults: [PeerFault] = []

    /// The brief's defaults, no faults.
    public init() {}

    /// An empty replay memory with this window and limit (REPLAY-1).
    public func makeReplayMemory() -> ReplayMemory {
        ReplayMemory(window: replayWindow, limit: replayMemoryLimit)
    }

    /// The decoder settings for a connection: the limits, the peer's version, and the choices and
    /// faults that change what the decoder accepts.
    public var decodeOptions: DecodeOptions {
        var options = DecodeOptions(
            bodyLimit: bodyLimit,
            version: version,
            tlv: TLVOptions(depthLimit: has(.dropOnDeepTLV) ? 2 : depthLimit, allowsDuplicateTags: allowsDuplicateTags),
            timestampWindow: timestampWindow.map { TimestampWindow(seconds: $0, now: 0) },
            verifiesChecksum: !has(.acceptBadCRC)
        )
        options.acceptsEncryptedBodies = choices.contains(.decryptsAES256)
        options.tlv.acceptsEmptyContainerPastLimit = choices.contains(.emptyContainerPastLimit)
        return options
    }

    /// The delay of the `slow-ack` fault, if it is on.
    public var slowAckDelay: Duration? {
        faults.lazy.compactMap { if case let .slowAck(delay) = $0 { delay } else { nil } }.first
    }

    /// Whether `fault` (any delay, for `slow-ack`) is on.
    public func has(_ fault: PeerFault) -> Bool {
        faults.contains { $0.name == fault.name }
    }
}
