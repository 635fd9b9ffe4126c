import DecafWire

/// Everything a client case saw, with times from the case's start: the connections the client
/// made with the frames it wrote and what the server wrote back, what the testee reported, and how
/// it ended. The judge decides on this alone, so verdicts are unit-tested without a client.
public struct ClientObservation: Sendable {
    /// Who closed a connection.
    public enum Closer: String, Hashable, Sendable {
        /// The client: its FIN or its reset, while the case ran.
        case client
        /// The server's script (a close or a reset it was told to make).
        case script
        /// The suite, at the case's end: never the client's doing.
        case suite
    }

    /// One connection the client made.
    public struct Connection: Sendable {
        public var opened: Duration
        public var closed: Duration?
        /// Who closed it, when it closed.
        public var closedBy: Closer?
        /// Whether the server's script closed or reset it (otherwise the client did, or the case ended).
        public var closedByServer: Bool { closedBy == .script }
        /// The client's frames, in order.
        public var frames: [Received] = []
        /// What the server wrote, in order.
        public var writes: [Write] = []
        /// The client's bytes that broke the protocol, and when.
        public var clientError: WireError?
        public var clientErrorTime: Duration?
        /// When the server finished answering the first VERSION_REQUEST, and the response's sequence.
        public var answered: Duration?
        public var responseSequence: SequenceNumber?

        public init(opened: Duration) {
            self.opened = opened
        }

        /// The client's frames of `type`.
        public func frames(_ type: MessageType) -> [Received] { frames.filter { $0.frame.header.messageType == type } }

        /// The client's ACKs of `sequence`.
        public func acks(of sequence: SequenceNumber) -> [Received] {
            frames.filter { $0.frame.header.messageType == .ack && $0.frame.header.sequence == sequence }
        }

        /// The time of the server's first write of a transmission whose label starts with `label`
        /// (its first part, when it went out in parts).
        public func written(_ label: String) -> Duration? { writes.first { Transmission.write($0.label, carries: label) }?.time }
    }

    public struct Received: Sendable {
        public var time: Duration
        public var frame: Frame

        public init(time: Duration, frame: Frame) {
            self.time = time
            self.frame = frame
        }
    }

    public struct Write: Sendable {
        public var time: Duration
        public var label: String
        public var bytes: Int
        /// The headers of the whole frames the write starts with.
        public var headers: [FrameHeader]

        public init(time: Duration, label: String, bytes: Int, headers: [FrameHeader] = []) {
            self.time = time
            self.label = label
            self.bytes = bytes
            self.headers = headers
        }
    }

    /// An event the testee reported.
    public struct Report: Hashable, Sendable {
        public var time: Duration
        /// Which of the case's testee processes (from 0).
        public var instance: Int
        public var event: ClientTesteeEvent

        public init(time: Duration, instance: Int, event: ClientTesteeEvent) {
            self.time = time
            self.instance = instance
            self.event = event
        }
    }

    /// How a testee process ended.
    public enum Exit: Hashable, Sendable {
        case status(Int32)
        case signal(Int32)
        /// Still running when the case ended, and stopped by the suite.
        case stopped
        /// It could not be started at all.
        case cannotStart(String)
    }

    public var connections: [Connection] = []
    public var reports: [Report] = []
    /// Per testee process, in start order.
    public var exits: [Exit?] = []
    /// The first line a testee wrote that is not an event.
    public var garbage: String?
    /// The last line of the testees' standard error, for reasons.
    public var lastWords = ""
    /// The settings the client uses: from its `ready` line, or those the suite suggested.
    public var settings: ClientSettings
    /// When the script reached `finish`, or the case's time ran out.
    public var ended: Duration?
    /// What the server's script was waiting for when the case ended before it finished.
    public var waitingFor: String?
    /// How far the server's script fell behind its own pauses on any connection, on a loaded
    /// machine: a byte-by-byte answer of 70 one-millisecond pauses can reach the client a second
    /// late although no single timer was more than a few milliseconds late.
    public var behindScript: Duration = .zero
    /// Whether the case ran out of time before its script finished and its testees exited.
    public var timedOut = false
    /// The UNIX time when the case started, to judge the client's timestamps (TS-1).
    public var startedAt: UInt32 = 0
    /// The client's VERSION_REQUEST, when the case took over a connection an earlier case of the
    /// same client opened (a fuzzing session): the request came before the case began.
    public var priorOffer: VersionRequest?
    /// Whether a frame the case sent has the sequence and timestamp of one an earlier case of the
    /// same client sent (a fuzzing session): the client may take it for a repeat (REPLAY-1),
    /// acknowledge it and not deliver it again.
    public var mayBeRepeat = false

    public init(settings: ClientSettings) {
        self.settings = settings
    }

    /// Every frame the client wrote, on every connection, in order of arrival.
    public var frames: [Received] { connections.flatMap(\.frames).sorted { $0.time < $1.time } }

    /// The client's DATA frames, on every connection.
    public var dataFrames: [Received] { connections.flatMap { $0.frames(.data) } }

    /// Reports of events named `name`.
    public func reports(_ name: String) -> [Report] { reports.filter { $0.event.name == name } }

    /// The payloads the testee delivered, in order.
    public var delivered: [[UInt8]] {
        reports.compactMap { if case let .delivered(payload) = $0.event { payload } else { nil } }
    }

    /// Ids reported by `acknowledged`, `failed` or `receipt`.
    public func ids(_ name: String) -> [String] {
        reports.compactMap {
            switch $0.event {
            case let .acknowledged(id) where name == "acknowledged": id
            case let .failed(id, _) where name == "failed": id
            case let .receipt(id) where name == "receipt": id
            default: nil
            }
        }
    }
}
