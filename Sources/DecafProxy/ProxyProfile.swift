import DecafSession

/// Named weak networks, built on figures a team published for this protocol: a subway (30% of
/// frames lost, 200-800 ms), a lift (50%, 200-800 ms), a Wi-Fi-to-cellular handover, and everyday
/// links to compare with.
public enum ProxyProfile: String, CaseIterable, Sendable {
    case subway
    case lift
    case handover
    case cellular
    case wifi
    case slow

    /// What the profile does to each direction, and when.
    public var timeline: ProxyTimeline {
        switch self {
        case .subway: ProxyTimeline(toxics: Self.both([.dropFrames(probability: 0.3, types: nil), .latency(.milliseconds(500), jitter: .milliseconds(300))]))
        case .lift: ProxyTimeline(toxics: Self.both([.dropFrames(probability: 0.5, types: nil), .latency(.milliseconds(500), jitter: .milliseconds(300))]))
        case .cellular: ProxyTimeline(toxics: Self.cellularToxics)
        case .wifi: ProxyTimeline(toxics: Self.wifiToxics)
        case .slow: ProxyTimeline(toxics: Self.both([.latency(.milliseconds(200), jitter: .milliseconds(50)), .bandwidth(bytesPerSecond: 32 * 1024)]))
        case .handover:
            ProxyTimeline(phases: [
                .init(name: "wifi", duration: .seconds(5), toxics: Self.wifiToxics, resetsConnections: true),
                .init(name: "lost", duration: .seconds(3), toxics: Self.both([.blackhole])),
                .init(name: "cellular", duration: .seconds(5), toxics: Self.cellularToxics, resetsConnections: true),
                .init(name: "lost", duration: .seconds(3), toxics: Self.both([.blackhole])),
            ], repeats: true)
        }
    }

    private static let wifiToxics = both([.latency(.milliseconds(5), jitter: .milliseconds(3))])
    private static let cellularToxics = both([.latency(.milliseconds(60), jitter: .milliseconds(20)),
                                        .packetLoss(probability: 0.01, retransmissionTimeout: .milliseconds(200))])

    private static func both(_ toxics: [Toxic]) -> ProxyToxics { ProxyToxics(upstream: toxics, downstream: toxics) }

    /// One line saying what the profile is.
    public var summary: String {
        switch self {
        case .subway: "30% of frames lost each way, 200-800 ms each way (the published subway figures)"
        case .lift: "50% of frames lost each way, 200-800 ms each way (the published lift figures)"
        case .handover: "Wi-Fi 5 s, 3 s of blackhole, every connection reset, cellular 5 s, 3 s of blackhole, reset, and over again"
        case .cellular: "40-80 ms each way, 1% packet loss with 200 ms retransmissions"
        case .wifi: "2-8 ms each way"
        case .slow: "150-250 ms each way, 32 KB/s"
        }
    }
}
