import DecafCapture
import DecafWire

/// Which frames a dissection shows: by message type, session id, sequence number or connection.
/// An empty set lets everything through; a frame without a header matches only when no header
/// field is filtered.
public struct FrameFilter: Sendable {
    public var types: Set<MessageType> = []
    public var sessions: Set<SessionID> = []
    public var sequences: Set<UInt32> = []
    public var connections: Set<Int> = []

    public init(types: Set<MessageType> = [], sessions: Set<SessionID> = [], sequences: Set<UInt32> = [], connections: Set<Int> = []) {
        self.types = types
        self.sessions = sessions
        self.sequences = sequences
        self.connections = connections
    }

    /// True when the filter lets everything through.
    public var isEmpty: Bool { types.isEmpty && sessions.isEmpty && sequences.isEmpty && connections.isEmpty }

    /// True when `record` passes the header filters.
    public func matches(_ record: FrameRecord) -> Bool {
        matches(header: record.header)
    }

    /// True when a frame with `header` (nil: bytes without one) passes the header filters.
    public func matches(header: FrameHeader?) -> Bool {
        guard !types.isEmpty || !sessions.isEmpty || !sequences.isEmpty else { return true }
        guard let header else { return false }
        return (types.isEmpty || types.contains(header.messageType))
            && (sessions.isEmpty || sessions.contains(header.sessionID))
            && (sequences.isEmpty || sequences.contains(header.sequence.rawValue))
    }

    /// True when a capture event passes: frames by every filter, other events by connection.
    public func matches(_ event: CaptureEvent) -> Bool {
        if case let .frame(frame) = event { return matches(connection: frame.connection) && matches(frame.record) }
        return event.connection.map(matches(connection:)) ?? true
    }

    /// True when a frame from a capture passes every filter.
    public func matches(_ frame: CapturedFrameView) -> Bool {
        matches(connection: frame.connection) && matches(header: frame.parts.header)
    }

    private func matches(connection: TCPConnection) -> Bool {
        connections.isEmpty || connections.contains(connection.index)
    }

    /// True when `frame` is on a connection and in a session the filter lets through, whatever its
    /// type and sequence: what a handshake's frames must pass to be reported.
    public func matchesConnection(of frame: CapturedFrameView) -> Bool {
        matches(connection: frame.connection)
            && (sessions.isEmpty || frame.parts.header.map { sessions.contains($0.sessionID) } == true)
    }
}
