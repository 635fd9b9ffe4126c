import DecafCapture

/// The picture of a capture's sessions: each session's connections in time, how each ended, the
/// failures found on it, and how long the session took to deliver again after losing one. Drawn
/// by `decaf monitor --html`; bounded to the first `sessionLimit` sessions and the first
/// `connectionLimit` connections of each, which is as much as a picture can show.
public struct SessionTimeline: Sendable {
    /// One connection of a session.
    public struct Connection: Sendable {
        public var index: Int
        public var first: CaptureTime
        public var last: CaptureTime
        /// Who ended it first and how; nil when the capture ended first (or did not show it).
        public var endedBy: (end: MonitorEnd, ending: TCPStreamEvent.Ending)?
        /// Its failures: when, and what in one line.
        public var failures: [(time: CaptureTime, text: String)]
        /// From the session's previous connection's last frame to this one's first delivery, ns.
        public var reconnect: Int64?
    }

    /// A session's connections, in the order they ended.
    public struct Session: Sendable {
        public var session: UInt16
        public var connections: [Connection] = []
    }

    public static let sessionLimit = 50
    public static let connectionLimit = 100
    /// Failures marked on a connection.
    public static let failureLimit = 20

    public private(set) var sessions: [Session] = []
    /// Connections left out to stay within the limits.
    public private(set) var connectionsNotShown = 0
    /// The earliest and latest times drawn.
    public private(set) var start: CaptureTime?
    public private(set) var end: CaptureTime?

    public init() {}

    /// Adds a connection that ended.
    mutating func add(session: UInt16, _ connection: Connection) {
        guard let slot = sessions.firstIndex(where: { $0.session == session })
                ?? (sessions.count < Self.sessionLimit ? append(session) : nil),
              sessions[slot].connections.count < Self.connectionLimit else {
            connectionsNotShown += 1
            return
        }
        var connection = connection
        connection.failures = Array(connection.failures.prefix(Self.failureLimit))
        sessions[slot].connections.append(connection)
        start = min(start ?? connection.first, connection.first)
        end = max(end ?? connection.last, connection.last)
    }

    private mutating func append(_ session: UInt16) -> Int {
        sessions.append(Session(session: session))
        return sessions.count - 1
    }
}
