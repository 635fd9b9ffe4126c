import DecafSession
import DecafWire

/// The reference client as a client testee (`decaf testee client`): how it sets up its
/// `ClientSession` from a case's settings, and the settings its `ready` line reports. One
/// definition for the process the suite starts and for the client the suite's own mutation
/// coverage plays in memory, so both are the same client.
public struct ReferenceClientTestee: Hashable, Sendable {
    /// The faults planted on purpose (`--fault`).
    public var faults: Set<ClientFault> = []
    /// The choices the brief leaves a client, made (`--choice`).
    public var choices: Set<ClientChoice> = []
    /// The largest body the client accepts, before and after inflating (`--body-limit`).
    public var bodyLimit = DecodeOptions.defaultBodyLimit
    /// The version the client offers (`--protocol-version`).
    public var version = ProtocolVersion.v1_0
    /// The features the client offers (`--features`): all but ENCRYPTION, which it cannot do.
    public var features = FeatureFlags.known.subtracting(.encryption)

    public init(faults: Set<ClientFault> = []) {
        self.faults = faults
    }

    /// The session's configuration for a case whose environment gave `settings`, and the settings
    /// the client reports in its `ready` line (the case's, with the version and features it offers).
    public func configuration(for settings: ClientSettings) -> (configuration: ClientConfiguration, ready: ClientSettings) {
        var configuration = ClientConfiguration()
        configuration.features = features
        configuration.compress = true
        configuration.ackTimeout = settings.ackTimeout
        configuration.retries = settings.retries
        configuration.heartbeat = settings.heartbeat
        configuration.reconnectBase = settings.reconnectBase
        configuration.maxDelay = settings.reconnectMax
        configuration.faults = faults
        configuration.choices = choices
        configuration.decodeOptions.bodyLimit = bodyLimit
        configuration.version = version
        var ready = settings
        ready.version = version
        ready.features = features
        return (configuration, ready)
    }
}
