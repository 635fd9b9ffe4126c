import DecafWire
import Foundation

/// One line a client testee writes on its standard output (Specs/conform-client.md): what its
/// application saw.
public enum ClientTesteeEvent: Hashable, Sendable {
    /// The settings the client uses, before it connects.
    case ready(ClientSettings)
    /// A handshake agreed on this version and these features (HS-2).
    case handshake(version: String, features: [String])
    case acknowledged(id: String)
    /// The message was given up (EX-7).
    case failed(id: String, reason: String)
    /// The server read the message (EX-4).
    case receipt(id: String)
    /// A DATA frame from the server reached the application.
    case delivered(payload: [UInt8])
    /// The server's bytes broke the protocol: the name of section 8's error.
    case error(name: String)
    /// The server sent an ERROR TLV (EX-5).
    case serverError(code: Int, reason: String)
    /// The client does not implement what the case needs.
    case unsupported(reason: String)
    /// An event this suite does not know; kept, never judged.
    case other(String)

    /// The event's name, as the testee wrote it.
    public var name: String {
        switch self {
        case .ready: "ready"
        case .handshake: "handshake"
        case .acknowledged: "acknowledged"
        case .failed: "failed"
        case .receipt: "receipt"
        case .delivered: "delivered"
        case .error: "error"
        case .serverError: "serverError"
        case .unsupported: "unsupported"
        case let .other(name): name
        }
    }

    /// The event on `line`, or nil when the line is not a JSON object with an `event` (the testee
    /// broke the protocol). Missing settings in `ready` are taken from `defaults`.
    public init?(line: some StringProtocol, defaults: ClientSettings) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let name = object["event"] as? String else { return nil }
        func text(_ key: String) -> String { object[key] as? String ?? "" }
        switch name {
        case "ready": self = .ready(Self.settings(object, defaults: defaults))
        case "handshake": self = .handshake(version: text("version"), features: object["features"] as? [String] ?? [])
        case "acknowledged": self = .acknowledged(id: text("id"))
        case "failed": self = .failed(id: text("id"), reason: text("reason"))
        case "receipt": self = .receipt(id: text("id"))
        case "delivered": self = .delivered(payload: Hex.bytes(text("payload")) ?? [])
        case "error": self = .error(name: text("error"))
        case "serverError": self = .serverError(code: (object["code"] as? NSNumber)?.intValue ?? -1, reason: text("reason"))
        case "unsupported": self = .unsupported(reason: text("reason"))
        default: self = .other(name)
        }
    }

    private static func settings(_ object: [String: Any], defaults: ClientSettings) -> ClientSettings {
        func milliseconds(_ key: String) -> Duration? {
            guard let value = (object[key] as? NSNumber)?.doubleValue, value.isFinite, value >= 0, value < 86_400_000 else { return nil }
            return .milliseconds(value)
        }
        var settings = defaults
        settings.ackTimeout = milliseconds("ackTimeoutMs") ?? defaults.ackTimeout
        if let retries = (object["retries"] as? NSNumber)?.intValue, (0...1000).contains(retries) { settings.retries = retries }
        settings.heartbeat = milliseconds("heartbeatMs")
        settings.reconnectBase = milliseconds("reconnectBaseMs") ?? defaults.reconnectBase
        settings.reconnectMax = milliseconds("reconnectMaxMs") ?? defaults.reconnectMax
        if let version = object["version"] as? String, let parsed = ProtocolVersion(dotted: version) { settings.version = parsed }
        if let names = object["features"] as? [String] {
            settings.features = names.reduce(into: FeatureFlags()) { flags, name in
                if let flag = FeatureFlags.named.first(where: { $0.name == name })?.flag { flags.formUnion(flag) }
            }
        }
        return settings
    }
}
