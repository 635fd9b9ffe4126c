import DecafWire

/// The timers and limits a client under test works with: what the suite suggests in the testee's
/// environment, or what the testee says it uses instead in its `ready` line. Timing verdicts are
/// judged against these.
public struct ClientSettings: Hashable, Sendable {
    /// A frame not acknowledged within this is sent again (EX-7).
    public var ackTimeout: Duration
    /// Resends before a message is given up (EX-7: 3).
    public var retries: Int
    /// The heartbeat interval on an idle connection; nil when the client sends none.
    public var heartbeat: Duration?
    /// The first wait before reconnecting, and the longest.
    public var reconnectBase: Duration
    public var reconnectMax: Duration
    /// The version the client offers: its major and highest minor.
    public var version: ProtocolVersion
    /// The features the client offers, when it said.
    public var features: FeatureFlags?

    public init(ackTimeout: Duration, retries: Int, heartbeat: Duration?, reconnectBase: Duration, reconnectMax: Duration,
                version: ProtocolVersion = .v1_0, features: FeatureFlags? = nil) {
        self.ackTimeout = ackTimeout
        self.retries = retries
        self.heartbeat = heartbeat
        self.reconnectBase = reconnectBase
        self.reconnectMax = reconnectMax
        self.version = version
        self.features = features
    }

    /// What the suite suggests: short timers, so cases about them are short too.
    public static let suggested = ClientSettings(
        ackTimeout: .milliseconds(400), retries: 3, heartbeat: .milliseconds(300),
        reconnectBase: .milliseconds(100), reconnectMax: .milliseconds(800)
    )

    /// The testee's environment for a case: the address, the case, and the suggested settings
    /// (the heartbeat only for cases about heartbeats).
    public func environment(host: String, port: Int, caseID: String, heartbeats: Bool) -> [String: String] {
        var environment = [
            "DECAF_CONFORM_HOST": host,
            "DECAF_CONFORM_PORT": String(port),
            "DECAF_CONFORM_CASE": caseID,
            "DECAF_CONFORM_ACK_TIMEOUT_MS": Self.milliseconds(ackTimeout),
            "DECAF_CONFORM_RETRIES": String(retries),
            "DECAF_CONFORM_RECONNECT_BASE_MS": Self.milliseconds(reconnectBase),
            "DECAF_CONFORM_RECONNECT_MAX_MS": Self.milliseconds(reconnectMax),
        ]
        if heartbeats, let heartbeat { environment["DECAF_CONFORM_HEARTBEAT_MS"] = Self.milliseconds(heartbeat) }
        return environment
    }

    /// The settings a testee is given in `environment`: the suggested ones where a variable is
    /// missing, and where one is not a number, which `problem` then says.
    public init(environment: [String: String], problem: inout String?) {
        func milliseconds(_ name: String, _ fallback: Duration?) -> Duration? {
            guard let text = environment[name] else { return fallback }
            guard let value = Int(text), (0...86_400_000).contains(value) else {
                problem = "\(name) is \(text.debugDescription), not a number of milliseconds"
                return fallback
            }
            return .milliseconds(value)
        }
        let suggested = Self.suggested
        self.init(ackTimeout: milliseconds("DECAF_CONFORM_ACK_TIMEOUT_MS", suggested.ackTimeout) ?? suggested.ackTimeout,
                  retries: suggested.retries, heartbeat: milliseconds("DECAF_CONFORM_HEARTBEAT_MS", nil),
                  reconnectBase: milliseconds("DECAF_CONFORM_RECONNECT_BASE_MS", suggested.reconnectBase) ?? suggested.reconnectBase,
                  reconnectMax: milliseconds("DECAF_CONFORM_RECONNECT_MAX_MS", suggested.reconnectMax) ?? suggested.reconnectMax)
        if let text = environment["DECAF_CONFORM_RETRIES"] {
            if let retries = Int(text), (0...1000).contains(retries) { self.retries = retries } else {
                problem = "DECAF_CONFORM_RETRIES is \(text.debugDescription), not a number from 0 to 1000"
            }
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(Int(DurationText.milliseconds(duration).rounded()))
    }
}
