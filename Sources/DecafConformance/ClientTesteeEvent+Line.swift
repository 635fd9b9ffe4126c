import DecafJSON
import DecafSession
import DecafWire

extension ClientTesteeEvent {
    /// The event a testee on Decaf's `ClientSession` reports for `event`, naming messages by the
    /// ids `name` gives them; nil for what the application is not told.
    public init?(_ event: ClientEvent, name: (Int) -> String) {
        switch event {
        case let .handshake(response, _): self = .handshake(version: "\(response.version)", features: response.features.names)
        case let .acknowledged(id, _, _): self = .acknowledged(id: name(id))
        case let .failed(id, reason): self = .failed(id: name(id), reason: reason)
        case let .readReceipt(id): self = .receipt(id: name(id))
        case let .delivered(_, payload): self = .delivered(payload: payload)
        case let .serverError(report): self = .serverError(code: Int(report.code), reason: report.reason)
        case let .protocolError(error): self = .error(name: error.code.name)
        case .requestAcknowledged, .sent, .incompatible, .disconnected, .reconnecting, .finished: return nil
        }
    }

    /// The line a testee prints for the event (Specs/conform-client.md).
    public var line: String {
        if case let .delivered(payload) = self {
            // Hex needs no escaping: the encoder's line, without walking megabytes of it.
            return #"{"event":"delivered","payload":""# + Hex.string(payload) + #""}"#
        }
        var line = Line(event: name)
        switch self {
        case let .ready(settings):
            line.ackTimeoutMs = Self.milliseconds(settings.ackTimeout)
            line.retries = settings.retries
            line.heartbeatMs = settings.heartbeat.map(Self.milliseconds)
            line.reconnectBaseMs = Self.milliseconds(settings.reconnectBase)
            line.reconnectMaxMs = Self.milliseconds(settings.reconnectMax)
            line.version = "\(settings.version)"
            line.features = settings.features?.names
        case let .handshake(version, features):
            line.version = version
            line.features = features
        case let .acknowledged(id), let .receipt(id):
            line.id = id
        case let .failed(id, reason):
            line.id = id
            line.reason = reason
        case let .error(name):
            line.error = name
        case let .serverError(code, reason):
            line.code = code
            line.reason = reason
        case let .unsupported(reason):
            line.reason = reason
        case .delivered, .other:
            break
        }
        return JSONLine.encode(line)
    }

    private struct Line: Encodable {
        var event: String
        var id: String?
        var reason: String?
        var error: String?
        var code: Int?
        var version: String?
        var features: [String]?
        var ackTimeoutMs: Int?
        var retries: Int?
        var heartbeatMs: Int?
        var reconnectBaseMs: Int?
        var reconnectMaxMs: Int?
    }

    private static func milliseconds(_ duration: Duration) -> Int { Int(DurationText.milliseconds(duration).rounded()) }
}
