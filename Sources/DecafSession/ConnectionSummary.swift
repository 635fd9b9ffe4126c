import DecafWire

/// What happened on one connection, logged when it closes.
public struct ConnectionSummary: Hashable, Sendable, CustomStringConvertible {
    /// Frames received, by message type.
    public var framesIn: [MessageType: Int] = [:]
    /// Frames sent, by message type.
    public var framesOut: [MessageType: Int] = [:]
    /// DATA frames delivered (repeats excluded unless a fault redelivers them).
    public var delivered = 0
    /// Repeated frames recognised (REPLAY-1).
    public var repeats = 0
    /// What the other side sent that broke the protocol.
    public var errors: [WireError] = []
    /// The last version response sent, if a handshake happened.
    public var negotiated: VersionResponse?

    /// Nothing happened yet.
    public init() {}

    /// One line for the log: frames in and out by type, deliveries, repeats, errors.
    public var description: String {
        func counts(_ frames: [MessageType: Int]) -> String {
            let parts = frames.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key)=\($0.value)" }
            return parts.isEmpty ? "none" : parts.joined(separator: " ")
        }
        var text = "in: \(counts(framesIn)); out: \(counts(framesOut)); delivered \(delivered), repeats \(repeats)"
        if let negotiated { text += "; negotiated \(negotiated.version) features \(negotiated.features)" }
        if !errors.isEmpty { text += "; errors: " + errors.map(\.code.name).joined(separator: ", ") }
        return text
    }
}
