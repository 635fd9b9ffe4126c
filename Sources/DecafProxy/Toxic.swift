/// One impairment of a proxied stream, with toxiproxy's names and meanings, so what people know
/// from toxiproxy holds here; `blackhole` is Decaf's own.
public enum Toxic: Hashable, Sendable {
    /// Every chunk waits `latency`, plus or minus up to `jitter`; order is kept.
    case latency(Duration, jitter: Duration)
    /// At most `bytesPerSecond` get through.
    case bandwidth(bytesPerSecond: Int)
    /// Chunks are cut into slices of `averageSize` bytes, give or take `sizeVariation`, each
    /// `delay` after the one before.
    case slicer(averageSize: Int, sizeVariation: Int, delay: Duration)
    /// When the other side closes, the close comes `Duration` later.
    case slowClose(Duration)
    /// Nothing gets through; the connection is closed after the duration (never, if zero).
    case timeout(Duration)
    /// The connection is reset (TCP RST) the duration after it opened.
    case resetPeer(Duration)
    /// The connection is closed once this many bytes have got through.
    case limitData(Int)
    /// Nothing gets through and the connection stays open, as through a dead NAT or a handover.
    case blackhole

    /// toxiproxy's name of the toxic's type.
    public var type: String {
        switch self {
        case .latency: "latency"
        case .bandwidth: "bandwidth"
        case .slicer: "slicer"
        case .slowClose: "slow_close"
        case .timeout: "timeout"
        case .resetPeer: "reset_peer"
        case .limitData: "limit_data"
        case .blackhole: "blackhole"
        }
    }
}
