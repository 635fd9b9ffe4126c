import DecafWire

/// One impairment of a proxied stream, with toxiproxy's names and meanings, so what people know
/// from toxiproxy holds here; `blackhole`, `down`, `packetLoss` and the toxics on frames are Decaf's own.
public enum Toxic: Hashable, Sendable {
    /// Every chunk waits `latency`, plus or minus up to `jitter`; order is kept.
    case latency(Duration, jitter: Duration)
    /// At most `bytesPerSecond` get through; 0 is no limit, as in toxiproxy.
    case bandwidth(bytesPerSecond: Int)
    /// Chunks are cut into slices of `averageSize` bytes, give or take `sizeVariation`, each
    /// `delay` after the one before; an `averageSize` of 0 leaves chunks whole.
    case slicer(averageSize: Int, sizeVariation: Int, delay: Duration)
    /// When the other side closes, the close comes `Duration` later.
    case slowClose(Duration)
    /// Nothing gets through; the connection is closed after the duration (never, if zero), and
    /// when the toxic is removed, as toxiproxy does.
    case timeout(Duration)
    /// The first bytes that come are dropped and the connection is reset (TCP RST, both sides)
    /// the duration after they came, as toxiproxy's `reset_peer` does.
    case resetPeer(Duration)
    /// The connection is closed once this many bytes have got through.
    case limitData(Int)
    /// Nothing gets through and the connection stays open, as through a dead NAT or a handover.
    case blackhole
    /// What IP packet loss does to a TCP stream, which never loses bytes: each chunk is lost with
    /// `probability` and comes when the sender's retransmission gets through, after
    /// `retransmissionTimeout`, doubled for each retransmission lost too; nothing behind it
    /// overtakes it (head-of-line blocking).
    case packetLoss(probability: Double, retransmissionTimeout: Duration)
    /// Whole frames are dropped with `probability`; only frames of `types`, when given (such as
    /// only ACKs). The toxics on frames cut the stream at frame boundaries first.
    case dropFrames(probability: Double, types: Set<MessageType>?)
    /// Whole frames are sent twice with `probability`.
    case duplicateFrames(probability: Double)
    /// Frames get a byte of their body changed with `probability`: a checksum mismatch.
    case corruptFrames(probability: Double)
    /// With `probability`, the connection is cut halfway through a frame.
    case cutFrames(probability: Double)
    /// The network is down: new connections are reset as soon as they are accepted, as when a
    /// server's host is unreachable. Connections already open are left as they are.
    case down
    /// Nothing at all: toxiproxy's `noop`, a placeholder its clients may add.
    case noop

    /// Whether every byte the sender sends reaches the receiver once, unchanged and in order,
    /// before the end of its stream: the toxic only delays, slices or holds back. A proxy loses,
    /// adds or changes bytes only through a toxic for which this is false.
    public var deliversEveryByte: Bool {
        switch self {
        case .latency, .bandwidth, .slicer, .slowClose, .packetLoss, .down, .noop: true
        case .timeout, .resetPeer, .limitData, .blackhole, .dropFrames, .duplicateFrames, .corruptFrames, .cutFrames: false
        }
    }

    /// Whether the toxic acts on whole frames.
    public var isOnFrames: Bool {
        switch self {
        case .dropFrames, .duplicateFrames, .corruptFrames, .cutFrames: true
        default: false
        }
    }
}
