import DecafCapture
import DecafWire

/// What `decaf dissect --stats` reports on a capture: frames and bytes per message type and per
/// connection, ACK round-trip times, frames never acknowledged, handshakes, errors and gaps. It sees
/// every frame, so an ACK finds the frame it acknowledges and a handshake both its halves whatever
/// the filter; the filter chooses what is counted and reported: frames that match it, and the
/// handshakes, gaps and notes of the connections and sessions it lets through.
public struct CaptureStatistics: CaptureSink, Sendable {
    public struct Count: Codable, Hashable, Sendable {
        public var frames = 0
        public var bytes = 0

        mutating func add(frameOf bytes: Int) {
            frames += 1
            self.bytes += bytes
        }
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
        var named = Dictionary(uniqueKeysWithValues: countsByType.entries.map { (MessageType(rawValue: UInt16($0.key - 1)).description, $0.value) })
        if headerless.frames > 0 { named["(no header)"] = headerless }
        return named
    }

    /// Counts by message type, keyed by the type's value plus one (a key is never 0).
    /// The statistics read only the brief's version offers.
    private static let names = FieldRegistry.brief
    private var countsByType = FrameKeyTable<Count>()
    private var headerless = Count()
    /// Counts by connection, keyed by `FrameKeyTable.key` of the connection alone.
    private var countsByConnection = FrameKeyTable<Count>()

    /// Frames and bytes by connection index.
    public var byConnection: [Int: Count] {
        Dictionary(uniqueKeysWithValues: countsByConnection.entries.map { (FrameKeyTable<Count>.parts(of: $0.key).connection, $0.value) })
    }
    /// The first `listLimit` connections, listed with their counts and handshakes.
    public private(set) var connections: [Int: TCPConnection] = [:]
    /// Connections after those: counted together, in `otherConnections`, so memory does not grow
    /// with the number of connections in the capture.
    public private(set) var connectionsNotListed = 0
    /// Frames and bytes of the connections not listed.
    public private(set) var otherConnections = Count()
    /// The index of the last connection listed, once `listLimit` are.
    private var listedUpTo: Int?
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

    /// A frame waiting for its ACK: when the first copy was seen, its type and packet, whether the
    /// filter reports it, and its place in `awaitingOrder`.
    private struct Sent {
        var time: CaptureTime
        var type: MessageType
        var packet: Int
        var reported: Bool
        var serial: Int
    }

    /// Frames waiting for their ACK, by `FrameKeyTable.key` of their connection, direction and sequence.
    private var awaiting = FrameKeyTable<Sent>()
    /// The frames that started waiting, oldest first from `awaitingOrderStart`; an entry whose
    /// serial no longer matches `awaiting` was acknowledged and is passed over.
    private var awaitingOrder: [(key: UInt64, serial: Int)] = []
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
        if case let .frame(frame) = event {
            frame.withView { self.frame($0) }
        } else {
            note(event)
        }
    }

    /// Adds an event about the capture rather than a frame.
    public mutating func note(_ event: CaptureEvent) {
        guard filter.matches(event) else { return }
        switch event {
        case .frame:
            break
        case let .connectionOpened(connection):
            guard isListed(connection.index) else {
                connectionsNotListed += 1
                return
            }
            connections[connection.index] = connection
            if connections.count == listLimit { listedUpTo = connection.index }
        case .joinedMidStream:
            midStreamJoins += 1
        case let .gap(_, _, count, _, _, _):
            gaps += 1
            missingBytes += count
        case .resynchronized:
            resynchronizations += 1
        case let .captureError(error):
            captureError = error
        case .ended, .connectionClosed:
            break
        }
    }

    /// Adds a frame, matching the filter or not.
    public mutating func frame(_ frame: CapturedFrameView) {
        let parts = frame.parts
        let index = frame.connection.index
        if filter.matches(frame) {
            if let type = parts.header?.messageType {
                countsByType.modify(UInt64(type.rawValue) + 1, from: Count()) { $0.add(frameOf: parts.bytes.count) }
            } else {
                headerless.add(frameOf: parts.bytes.count)
            }
            if isListed(index) {
                countsByConnection.modify(FrameKeyTable<Count>.key(connection: index, direction: 0, sequence: 0), from: Count()) { $0.add(frameOf: parts.bytes.count) }
            } else {
                otherConnections.add(frameOf: parts.bytes.count)
            }
            if let error = parts.error {
                if errors.count < listLimit {
                    errors.append(ErrorSeen(connection: index, direction: frame.direction, name: error.code.name,
                                            requirement: error.requirement.rawValue, packet: frame.completedBy,
                                            streamOffset: parts.streamOffset))
                } else {
                    errorsLeftOut += 1
                }
            }
            countAcknowledgement(frame, reported: true)
        } else {
            countAcknowledgement(frame, reported: false)
        }
        guard parts.isValid, isListed(index), filter.matchesConnection(of: frame) else { return }
        let fields = parts.fields
        guard fields.hasTopLevelField(where: { ControlFields.mayHoldOffer($0, naming: Self.names) }) else { return }
        var offers = ControlFields()
        fields.walkTLVFields(&offers, naming: Self.names)
        if let request = offers.request {
            handshakes[index, default: Handshake(connection: index)].requestedVersion = request.version.description
            handshakes[index, default: Handshake(connection: index)].requestedFeatures = request.features.names
        }
        if let response = offers.response {
            handshakes[index, default: Handshake(connection: index)].negotiatedVersion = response.version.description
            handshakes[index, default: Handshake(connection: index)].negotiatedFeatures = response.features.names
        }
    }

    /// Whether connection `index` is one of the first `listLimit`: connections are numbered in the
    /// order they open, and each opens before its first frame.
    private func isListed(_ index: Int) -> Bool {
        listedUpTo.map { index <= $0 } ?? true
    }

    /// Every connection reported on, listed or not.
    public var connectionCount: Int { connections.count + connectionsNotListed }

    /// Times an ACK against the frame it acknowledges, or starts a frame waiting for its ACK.
    private mutating func countAcknowledgement(_ frame: CapturedFrameView, reported: Bool) {
        guard frame.parts.isValid, let header = frame.parts.header else { return }
        let index = frame.connection.index
        if header.messageType == .ack {
            let key = Self.key(index, frame.direction.reversed, header.sequence)
            if let sent = awaiting.remove(key), sent.reported {
                recordRoundTrip(RoundTrip(connection: index, sequence: header.sequence.rawValue, nanoseconds: frame.time.nanoseconds(since: sent.time)))
            }
        } else if header.messageType.isAcknowledged {
            let key = Self.key(index, frame.direction, header.sequence)
            if awaiting[key] == nil {
                startWaiting(key, time: frame.time, type: header.messageType, packet: frame.completedBy, reported: reported)
            }
        }
    }

    /// Starts waiting for `key`'s ACK; past `awaitingLimit`, gives up the frame waiting longest.
    /// The key of the frame on connection `index` in `direction` with `sequence`.
    private static func key(_ index: Int, _ direction: TCPDirection, _ sequence: SequenceNumber) -> UInt64 {
        FrameKeyTable<Sent>.key(connection: index, direction: direction == .clientToServer ? 0 : 1, sequence: sequence.rawValue)
    }

    private mutating func startWaiting(_ key: UInt64, time: CaptureTime, type: MessageType, packet: Int, reported: Bool) {
        awaiting.set(Sent(time: time, type: type, packet: packet, reported: reported, serial: nextSerial), for: key)
        awaitingOrder.append((key, nextSerial))
        nextSerial += 1
        while awaiting.count > awaitingLimit, awaitingOrderStart < awaitingOrder.count {
            let (oldest, serial) = awaitingOrder[awaitingOrderStart]
            awaitingOrderStart += 1
            if let given = awaiting[oldest], given.serial == serial {
                awaiting.remove(oldest)
                if given.reported { unacknowledgedLeftOut += 1 }
            }
        }
        // Entries of acknowledged or given-up frames are dropped, in place, once they are half as
        // many as the frames still waiting, or fill half the list (at the limit, one is given up
        // per frame): the list stays within one and a half times the frames waiting.
        if awaitingOrder.count - awaitingOrderStart > awaiting.count + awaiting.count / 2 + 1024
            || awaitingOrderStart > max(awaitingOrder.count / 2, 1024) {
            var kept = 0
            for entry in awaitingOrderStart..<awaitingOrder.count where awaiting[awaitingOrder[entry].key]?.serial == awaitingOrder[entry].serial {
                awaitingOrder[kept] = awaitingOrder[entry]
                kept += 1
            }
            awaitingOrder.removeLast(awaitingOrder.count - kept)
            awaitingOrderStart = 0
        }
    }

    /// Frames still waiting for an ACK, in capture order.
    public var unacknowledged: [Unacknowledged] { unacknowledged(first: .max) }

    /// How many frames are still waiting for an ACK.
    public var unacknowledgedCount: Int {
        var count = 0
        awaiting.forEach { _, sent in if sent.reported { count += 1 } }
        return count
    }

    /// The first `limit` frames still waiting for an ACK, in capture order: the frames are sorted
    /// by two words each (their packet and key), and only those listed are described, so a
    /// capture's end with 100,000 frames waiting costs little more memory than the table.
    public func unacknowledged(first limit: Int) -> [Unacknowledged] {
        var waiting: [(packet: Int, key: UInt64)] = []
        waiting.reserveCapacity(awaiting.count)
        awaiting.forEach { key, sent in if sent.reported { waiting.append((sent.packet, key)) } }
        func order(_ key: UInt64) -> (sequence: UInt32, connection: Int) {
            let parts = FrameKeyTable<Sent>.parts(of: key)
            return (parts.sequence, parts.connection)
        }
        waiting.sort { ($0.packet, order($0.key).sequence, order($0.key).connection) < ($1.packet, order($1.key).sequence, order($1.key).connection) }
        return waiting.prefix(limit).compactMap { _, key in
            guard let sent = awaiting[key] else { return nil }
            let parts = FrameKeyTable<Sent>.parts(of: key)
            return Unacknowledged(connection: parts.connection, direction: parts.direction == 0 ? .clientToServer : .serverToClient,
                                  messageType: sent.type.description, sequence: parts.sequence, packet: sent.packet)
        }
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
