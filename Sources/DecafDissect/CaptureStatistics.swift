import DecafCapture
import DecafWire

/// What `decaf dissect --stats` reports on a capture: frames and bytes per message type and per
/// connection, ACK round-trip times, frames never acknowledged, handshakes, errors and gaps. It sees
/// every frame, so an ACK finds the frame it acknowledges and a handshake both its halves whatever
/// the filter; the filter chooses what is counted and reported: frames that match it, and the
/// handshakes, gaps and notes of the connections and sessions it lets through.
public struct CaptureStatistics: Sendable {
    public struct Count: Codable, Hashable, Sendable {
        public var frames = 0
        public var bytes = 0
    }

    /// The round trip of one acknowledged frame: from the packet that completed it to the packet
    /// that completed the ACK carrying its sequence, in the other direction of its connection.
    public struct RoundTrip: Codable, Hashable, Sendable {
        public var connection: Int
        public var sequence: UInt32
        public var nanoseconds: Int64
    }

    /// A frame that needed an ACK (EX-1, EX-2) and got none before the capture ended.
    public struct Unacknowledged: Codable, Hashable, Sendable {
        public var connection: Int
        public var direction: TCPDirection
        public var messageType: String
        public var sequence: UInt32
        public var packet: Int
    }

    /// A version handshake: what the client offered and what the server answered (HS-1, HS-2).
    public struct Handshake: Codable, Hashable, Sendable {
        public var connection: Int
        public var requestedVersion: String?
        public var requestedFeatures: [String]?
        public var negotiatedVersion: String?
        public var negotiatedFeatures: [String]?
    }

    public struct ErrorSeen: Codable, Hashable, Sendable {
        public var connection: Int
        public var direction: TCPDirection
        public var name: String
        public var requirement: String
        public var packet: Int
        public var streamOffset: Int
    }

    /// Frames and bytes by message type's name (`(no header)` for bytes without one).
    public var byType: [String: Count] {
        var named = Dictionary(uniqueKeysWithValues: countsByType.map { ($0.key.description, $0.value) })
        if headerless.frames > 0 { named["(no header)"] = headerless }
        return named
    }

    private var countsByType: [MessageType: Count] = [:]
    private var headerless = Count()
    public private(set) var byConnection: [Int: Count] = [:]
    public private(set) var connections: [Int: TCPConnection] = [:]
    /// The first `roundTripLimit` round trips, in capture order; kept only when asked for
    /// (`keepsEachRoundTrip`), and never more, so memory does not grow with the capture. The
    /// summary covers them all.
    public private(set) var roundTrips: [RoundTrip] = []
    /// Round trips after the first `roundTripLimit`, counted but not kept.
    public private(set) var roundTripsLeftOut = 0
    /// Whether `roundTrips` is kept. The summary never needs it.
    public let keepsEachRoundTrip: Bool
    /// How many round trips `roundTrips` keeps at most.
    public let roundTripLimit: Int
    /// How many frames were acknowledged.
    public private(set) var roundTripCount = 0
    private var roundTripDistribution = RoundTripDistribution()
    public private(set) var handshakes: [Int: Handshake] = [:]
    /// The first `listLimit` errors, in capture order.
    public private(set) var errors: [ErrorSeen] = []
    /// Errors after the first `listLimit`, counted but not kept.
    public private(set) var errorsLeftOut = 0
    /// How many errors `errors` keeps at most.
    public let listLimit: Int
    /// How many frames may wait for their ACK at once; past it the one waiting longest is given up.
    public let awaitingLimit: Int
    /// Frames given up waiting for their ACK because `awaitingLimit` frames were waiting: neither
    /// listed as unacknowledged nor timed if their ACK comes later.
    public private(set) var unacknowledgedLeftOut = 0
    public private(set) var gaps = 0
    public private(set) var missingBytes = 0
    public private(set) var resynchronizations = 0
    public private(set) var midStreamJoins = 0
    public private(set) var captureError: CaptureError?

    private struct Awaiting: Hashable {
        var connection: Int
        var direction: TCPDirection
        var sequence: UInt32
    }

    /// A frame waiting for its ACK: when the first copy was seen, its type and packet, whether the
    /// filter reports it, and its place in `awaitingOrder`.
    private struct Sent {
        var time: CaptureTime
        var type: MessageType
        var packet: Int
        var reported: Bool
        var serial: Int
    }

    private var awaiting: [Awaiting: Sent] = [:]
    /// The frames that started waiting, oldest first from `awaitingOrderStart`; an entry whose
    /// serial no longer matches `awaiting` was acknowledged and is passed over.
    private var awaitingOrder: [(key: Awaiting, serial: Int)] = []
    private var awaitingOrderStart = 0
    private var nextSerial = 0

    /// What is counted and reported.
    public let filter: FrameFilter

    public init(keepsEachRoundTrip: Bool = false, roundTripLimit: Int = 10_000, listLimit: Int = 10_000, awaitingLimit: Int = 100_000,
                filter: FrameFilter = FrameFilter()) {
        self.keepsEachRoundTrip = keepsEachRoundTrip
        self.roundTripLimit = roundTripLimit
        self.listLimit = listLimit
        self.awaitingLimit = awaitingLimit
        self.filter = filter
    }

    /// Adds any event of the capture; give it every one, filtered or not.
    public mutating func add(_ event: CaptureEvent) {
        switch event {
        case let .frame(frame):
            add(frame, reported: filter.matches(event))
        default:
            guard filter.matches(event) else { return }
            addNote(event)
        }
    }

    /// An event about the capture rather than a frame.
    private mutating func addNote(_ event: CaptureEvent) {
        switch event {
        case .frame:
            break
        case let .connectionOpened(connection):
            connections[connection.index] = connection
        case .joinedMidStream:
            midStreamJoins += 1
        case let .gap(_, _, count, _, _, _):
            gaps += 1
            missingBytes += count
        case .resynchronized:
            resynchronizations += 1
        case let .captureError(error):
            captureError = error
        }
    }

    private mutating func add(_ frame: CapturedFrame, reported: Bool) {
        let record = frame.record
        let index = frame.connection.index
        if reported {
            if let type = record.header?.messageType {
                countsByType[type, default: Count()].frames += 1
                countsByType[type, default: Count()].bytes += record.bytes.count
            } else {
                headerless.frames += 1
                headerless.bytes += record.bytes.count
            }
            byConnection[index, default: Count()].frames += 1
            byConnection[index, default: Count()].bytes += record.bytes.count
            if let error = record.error {
                if errors.count < listLimit {
                    errors.append(ErrorSeen(connection: index, direction: frame.direction, name: error.code.name,
                                            requirement: error.requirement.rawValue, packet: frame.completedBy,
                                            streamOffset: record.streamOffset))
                } else {
                    errorsLeftOut += 1
                }
            }
        }
        guard record.error == nil, let header = record.header else { return }
        if header.messageType == .ack {
            let key = Awaiting(connection: index, direction: frame.direction.reversed, sequence: header.sequence.rawValue)
            if let sent = awaiting.removeValue(forKey: key), sent.reported {
                recordRoundTrip(RoundTrip(connection: index, sequence: key.sequence, nanoseconds: frame.time.nanoseconds(since: sent.time)))
            }
        } else if header.messageType.isAcknowledged {
            let key = Awaiting(connection: index, direction: frame.direction, sequence: header.sequence.rawValue)
            if awaiting[key] == nil {
                startWaiting(key, time: frame.time, type: header.messageType, packet: frame.completedBy, reported: reported)
            }
        }
        guard filter.matchesConnection(of: frame) else { return }
        // A frame without an error shows all its fields; walked in place, looking at handshake tags only.
        for field in TLVSequence(record.payload ?? []) where field.tag == .versionRequest || field.tag == .versionResponse {
            switch field.interpreted {
            case let .versionRequest(offer):
                handshakes[index, default: Handshake(connection: index)].requestedVersion = offer.version.description
                handshakes[index, default: Handshake(connection: index)].requestedFeatures = offer.features.names
            case let .versionResponse(offer):
                handshakes[index, default: Handshake(connection: index)].negotiatedVersion = offer.version.description
                handshakes[index, default: Handshake(connection: index)].negotiatedFeatures = offer.features.names
            default:
                continue
            }
        }
    }

    /// Starts waiting for `key`'s ACK; past `awaitingLimit`, gives up the frame waiting longest.
    private mutating func startWaiting(_ key: Awaiting, time: CaptureTime, type: MessageType, packet: Int, reported: Bool) {
        awaiting[key] = Sent(time: time, type: type, packet: packet, reported: reported, serial: nextSerial)
        awaitingOrder.append((key, nextSerial))
        nextSerial += 1
        while awaiting.count > awaitingLimit, awaitingOrderStart < awaitingOrder.count {
            let (oldest, serial) = awaitingOrder[awaitingOrderStart]
            awaitingOrderStart += 1
            if let given = awaiting[oldest], given.serial == serial {
                awaiting[oldest] = nil
                if given.reported { unacknowledgedLeftOut += 1 }
            }
        }
        // Entries of acknowledged frames are dropped once they outnumber the frames still waiting.
        if awaitingOrder.count - awaitingOrderStart > 2 * awaiting.count + 1024 {
            awaitingOrder = awaitingOrder[awaitingOrderStart...].filter { awaiting[$0.key]?.serial == $0.serial }
            awaitingOrderStart = 0
        }
    }

    /// Frames still waiting for an ACK, in capture order.
    public var unacknowledged: [Unacknowledged] {
        awaiting.filter(\.value.reported).map { key, sent in
            Unacknowledged(connection: key.connection, direction: key.direction, messageType: sent.type.description, sequence: key.sequence, packet: sent.packet)
        }.sorted { ($0.packet, $0.sequence) < ($1.packet, $1.sequence) }
    }

    private mutating func recordRoundTrip(_ roundTrip: RoundTrip) {
        roundTripCount += 1
        roundTripDistribution.record(roundTrip.nanoseconds)
        guard keepsEachRoundTrip else { return }
        if roundTrips.count < roundTripLimit {
            roundTrips.append(roundTrip)
        } else {
            roundTripsLeftOut += 1
        }
    }

    /// Minimum, median, 99th percentile and maximum of the ACK round trips; nil without any.
    public var roundTripSummary: RoundTripSummary? { roundTripDistribution.summary }
}
