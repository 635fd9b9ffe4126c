import DecafWire

/// How a client behaves: what it offers in the handshake, how many messages it keeps in flight,
/// when it resends and gives up (EX-7), how it reconnects, and how it notices a dead server. The
/// defaults are a well-behaved mobile client's.
public struct ClientConfiguration: Hashable, Sendable {
    /// The session id of every frame the client sends.
    public var session = SessionID(rawValue: 1)
    /// The version offered: the client's major and highest minor (HS-1).
    public var version: ProtocolVersion = .v1_0
    /// The features offered; BASIC is always added (HS-1).
    public var features: FeatureFlags = .known
    /// DATA frames sent but not yet acknowledged, at most.
    public var window = 64
    /// A frame not acknowledged within this is sent again, same sequence and timestamp (EX-7).
    public var ackTimeout: Duration = .seconds(1)
    /// Times a frame is sent again before it is given up (EX-7: 3).
    public var retries = 3
    /// Whether DATA bodies are compressed when the handshake agreed on COMPRESSION.
    public var compress = false
    /// How the wait before reconnecting grows (RECONNECT-1).
    public var reconnect: ReconnectPolicy = .exponential
    /// The first wait before reconnecting; later waits grow from it.
    public var reconnectBase: Duration = .milliseconds(100)
    /// The longest wait between reconnect attempts.
    public var maxDelay: Duration = .seconds(30)
    /// A connection that stayed up this long after its handshake was healthy: the backoff starts
    /// over when it is lost. One that drops sooner counts as another failed attempt, so a server
    /// that accepts and falls over at once is not hammered.
    public var stableConnection: Duration = .seconds(10)
    /// The interval between heartbeats on an idle connection; nil sends none.
    public var heartbeat: Duration?
    /// Heartbeat intervals without a single frame from the server after which it counts as dead
    /// and the connection is closed and reopened.
    public var silentIntervalsBeforeDead = 3
    /// How the client reads what the server sends: the brief's limits, strict checks, no
    /// decryption. The version read is always the client's own (VER-1, VER-2).
    public var decodeOptions = DecodeOptions()
    /// How long a server frame is remembered, in seconds, to recognise a repeat (REPLAY-1).
    public var replayWindow: UInt32 = 60
    /// The longest a connection attempt may take before it counts as failed, so a connect into a
    /// blackhole does not wait for the operating system's minutes.
    public var connectTimeout: Duration = .seconds(10)
    /// When set, the ACK timeout follows the measured round trip (RFC 6298's estimator: smoothed
    /// RTT plus four deviations) within these bounds; `ackTimeout` is the first guess.
    public var adaptiveAckTimeout: ClosedRange<Duration>?
    /// When true, each DATA frame goes out as many times at once as the loss measured on this
    /// session calls for (up to three), so one copy gets through without waiting for an ACK
    /// timeout; the server recognises the repeats (REPLAY-1).
    public var sendsCopiesUnderLoss = false
    /// Sends of a VERSION_REQUEST before the connection is closed and another tried, whatever
    /// `retries` says: a handshake lost in a blackhole is retried on a fresh connection.
    public var handshakeSends = 4
    /// When true, a VERSION_REQUEST without an answer is sent again as a new request (a new
    /// sequence): the server ACKs a repeat but does not answer it again (REPLAY-1), so resending the
    /// same one cannot make up for a lost VERSION_RESPONSE.
    public var renewsHandshakeRequest = false
    /// Choices the brief leaves a client, made; none by default.
    public var choices: Set<ClientChoice> = []
    /// Misbehave on purpose, for testing conformance tools.
    public var faults: Set<ClientFault> = []

    /// The brief's defaults: no faults, nothing compressed.
    public init() {}

    /// The decoder settings: the client's own version, and the choices and faults that change what
    /// it accepts.
    public var effectiveDecodeOptions: DecodeOptions {
        var options = decodeOptions
        options.version = version
        if choices.contains(.takesDuplicateTags) { options.tlv.allowsDuplicateTags = true }
        if choices.contains(.timestampWindow) { options.timestampWindow = TimestampWindow(seconds: ClientChoice.windowSeconds, now: 0) }
        if choices.contains(.emptyContainerPastLimit) { options.tlv.acceptsEmptyContainerPastLimit = true }
        if faults.contains(.acceptsBadCRC) { options.verifiesChecksum = false }
        if faults.contains(.depthLimitThree) { options.tlv.depthLimit = 3 }
        if faults.contains(.ignoresDuplicateTags) { options.tlv.allowsDuplicateTags = true }
        return options
    }
}
