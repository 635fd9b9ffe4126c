import DecafSession

/// Named weak networks, built on figures a team published for this protocol: a subway (30% of
/// frames lost, 200-800 ms), a lift (50%, 200-800 ms), and everyday links to compare with.
public enum ProxyProfile: String, CaseIterable, Sendable {
    case subway
    case lift
    case cellular
    case wifi
    case slow

    /// What the profile does to each direction.
    public var toxics: ProxyToxics {
        let both: [Toxic]
        switch self {
        case .subway: both = [.dropFrames(probability: 0.3, types: nil), .latency(.milliseconds(500), jitter: .milliseconds(300))]
        case .lift: both = [.dropFrames(probability: 0.5, types: nil), .latency(.milliseconds(500), jitter: .milliseconds(300))]
        case .cellular: both = [.latency(.milliseconds(60), jitter: .milliseconds(20)), .packetLoss(probability: 0.01, retransmissionTimeout: .milliseconds(200))]
        case .wifi: both = [.latency(.milliseconds(5), jitter: .milliseconds(3))]
        case .slow: both = [.latency(.milliseconds(200), jitter: .milliseconds(50)), .bandwidth(bytesPerSecond: 32 * 1024)]
        }
        return ProxyToxics(upstream: both, downstream: both)
    }

    /// One line saying what the profile is.
    public var summary: String {
        switch self {
        case .subway: "30% of frames lost each way, 200-800 ms each way (the published subway figures)"
        case .lift: "50% of frames lost each way, 200-800 ms each way (the published lift figures)"
        case .cellular: "40-80 ms each way, 1% packet loss with 200 ms retransmissions"
        case .wifi: "2-8 ms each way"
        case .slow: "150-250 ms each way, 32 KB/s"
        }
    }
}
