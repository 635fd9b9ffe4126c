/// Follows every TCP connection of a capture and reassembles both directions of each. A SYN on
/// ports already in use starts a new connection (port reuse); a connection whose start was not
/// captured is joined mid-stream.
public struct TCPConnectionTracker {
    /// Packets that carried no TCP segment Decaf could use, by kind of reason (`Skip.kind`).
    public private(set) var skippedPackets: [String: Int] = [:]
    /// Packets the capture cut short (its snapshot length); their missing payload shows as gaps.
    public private(set) var truncatedPackets = 0
    /// Bytes seen again after they had been passed on, over every connection.
    public private(set) var retransmittedBytes = 0

    /// Out-of-order bytes all connections together may hold while they wait for missing ones;
    /// past it, the direction holding the most gives up waiting (its gap is reported at once).
    public let heldBytesBudget: Int
    /// How many times a direction gave up waiting because of `heldBytesBudget`.
    public private(set) var budgetReleases = 0
    /// Out-of-order bytes held now, over every connection.
    private var heldBytes = 0

    private var connections: [Key: State] = [:]
    private var connectionCount = 0
    /// The connections `finishNext` has still to close, the next one last.
    private var closingOrder: [Key] = []

    /// The endpoints of a connection, in a fixed order whichever way a packet goes.
    private struct Key: Hashable {
        var low: TCPEndpoint
        var high: TCPEndpoint

        init(_ segment: TCPSegment) {
            (low, high) = segment.source < segment.destination
                ? (segment.source, segment.destination) : (segment.destination, segment.source)
        }
    }

    private struct State {
        var client: TCPEndpoint
        var server: TCPEndpoint
        /// The client's initial sequence number, when its SYN was captured.
        var clientSYN: UInt32?
        /// False until a SYN or a payload byte settles which side is the client.
        var isSettled: Bool
        var connection: TCPConnection?
        var streams = PerDirection(both: TCPStreamReassembler())
        var finished: Set<TCPDirection> = []
        /// The sequence number after each direction's FIN, once it was captured.
        var finEnd = PerDirection<UInt32?>(both: nil)
        /// Directions whose FIN the other side acknowledged: it had every byte before it, so bytes
        /// the capture still lacks there were lost by the capture and will never come.
        var acknowledgedFIN: Set<TCPDirection> = []

        /// A connection first seen in `segment`: a SYN's sender is the client, a SYN-ACK's receiver is.
        init(_ segment: TCPSegment) {
            let synAck = segment.flags.isSuperset(of: [.syn, .ack])
            client = synAck ? segment.destination : segment.source
            server = synAck ? segment.source : segment.destination
            isSettled = segment.flags.contains(.syn)
        }

        func direction(of segment: TCPSegment) -> TCPDirection {
            segment.source == client ? .clientToServer : .serverToClient
        }
    }

    public init(heldBytesBudget: Int = 16 << 20) {
        self.heldBytesBudget = heldBytesBudget
    }

    /// The events captured packet `packet` brings.
    public mutating func add(_ packet: CapturedPacket) -> [TCPStreamEvent] {
        if packet.originalLength > packet.bytes.count { truncatedPackets += 1 }
        let segment: TCPSegment
        do {
            segment = try PacketDecoder.segment(of: packet)
        } catch {
            skippedPackets[error.kind, default: 0] += 1
            return []
        }
        return add(segment, packet: packet.number, time: packet.time)
    }

    /// The events one segment brings.
    public mutating func add(_ segment: TCPSegment, packet: Int, time: CaptureTime) -> [TCPStreamEvent] {
        let key = Key(segment)
        var events: [TCPStreamEvent] = []
        let opensConnection = segment.flags.contains(.syn) && !segment.flags.contains(.ack)
        if opensConnection, let existing = connections[key], existing.clientSYN != segment.sequence {
            close(key, into: &events)
        }
        // Taken out and put back, so its buffers are never copied on the way.
        var state = connections.removeValue(forKey: key) ?? State(segment)
        if opensConnection { state.clientSYN = segment.sequence }
        if !state.isSettled && !segment.payload.isEmpty && state.connection == nil {
            (state.client, state.server) = (segment.source, segment.destination)
            state.isSettled = true
        }
        let direction = state.direction(of: segment)
        let wasStarted = state.streams[direction].hasStarted
        let heldBefore = state.streams[direction].heldByteCount
        let outputs = state.streams[direction].add(segment, packet: packet, time: time)
        heldBytes += state.streams[direction].heldByteCount - heldBefore
        if !outputs.isEmpty { open(&state, into: &events) }
        if let connection = state.connection {
            if !wasStarted && state.streams[direction].startedMidStream {
                events.append(.joinedMidStream(connection, direction))
            }
            events += Self.events(outputs, connection, direction)
        }
        if segment.flags.contains(.fin) {
            state.finished.insert(direction)
            state.finEnd[direction] = segment.sequence &+ UInt32(truncatingIfNeeded: segment.sequenceLength)
        }
        if segment.flags.contains(.ack), let end = state.finEnd[direction.reversed], Int32(bitPattern: segment.acknowledgment &- end) >= 0 {
            state.acknowledgedFIN.insert(direction.reversed)
        }
        connections[key] = state
        let allDelivered = state.streams.clientToServer.heldByteCount == 0 && state.streams.serverToClient.heldByteCount == 0
        if segment.flags.contains(.rst) || (state.finished.count == 2 && (allDelivered || state.acknowledgedFIN.count == 2)) {
            close(key, into: &events)
        }
        if heldBytes > heldBytesBudget { keepHeldBytesInBudget(packet: packet, time: time, into: &events) }
        return events
    }

    /// While all connections together hold more than `heldBytesBudget` out-of-order bytes, the
    /// direction holding the most stops waiting for what it misses: its gaps are reported now
    /// (noticed at `packet`) and what it held is passed on.
    private mutating func keepHeldBytesInBudget(packet: Int, time: CaptureTime, into events: inout [TCPStreamEvent]) {
        while heldBytes > heldBytesBudget {
            var largest: (key: Key, direction: TCPDirection, bytes: Int)?
            for (key, state) in connections {
                for direction in TCPDirection.allCases where state.streams[direction].heldByteCount > largest?.bytes ?? 0 {
                    largest = (key, direction, state.streams[direction].heldByteCount)
                }
            }
            guard let largest, var state = connections.removeValue(forKey: largest.key) else { return }
            heldBytes -= largest.bytes
            budgetReleases += 1
            let outputs = state.streams[largest.direction].stopWaiting(packet: packet, time: time)
            if !outputs.isEmpty { open(&state, into: &events) }
            if let connection = state.connection { events += Self.events(outputs, connection, largest.direction) }
            connections[largest.key] = state
        }
    }

    /// The end of the capture: every connection still open is flushed and closed, in the order
    /// the connections opened.
    public mutating func finish() -> [TCPStreamEvent] {
        var events: [TCPStreamEvent] = []
        while let next = finishNext() { events += next }
        return events
    }

    /// The end of the capture a connection at a time, in the order the connections opened: the
    /// events of flushing and closing the next one still open, nil when none is left. A caller
    /// that handles each before asking for the next holds one connection's held bytes at a time.
    public mutating func finishNext() -> [TCPStreamEvent]? {
        if closingOrder.isEmpty {
            closingOrder = connections.sorted { ($0.value.connection?.index ?? .max) > ($1.value.connection?.index ?? .max) }.map(\.key)
        }
        while let key = closingOrder.popLast() {
            guard connections[key] != nil else { continue }
            var events: [TCPStreamEvent] = []
            close(key, into: &events)
            return events
        }
        return nil
    }

    private mutating func close(_ key: Key, into events: inout [TCPStreamEvent]) {
        guard var state = connections.removeValue(forKey: key) else { return }
        var outputs = PerDirection<[TCPStreamReassembler.Output]>(both: [])
        for direction in TCPDirection.allCases {
            heldBytes -= state.streams[direction].heldByteCount
            outputs[direction] = state.streams[direction].finish()
            retransmittedBytes += state.streams[direction].retransmittedBytes
        }
        // A connection whose every byte was held behind a loss is first heard of here.
        if !outputs.clientToServer.isEmpty || !outputs.serverToClient.isEmpty { open(&state, into: &events) }
        guard let connection = state.connection else { return }
        for direction in TCPDirection.allCases { events += Self.events(outputs[direction], connection, direction) }
        events.append(.closed(connection))
    }

    /// Numbers the connection and says it opened, the first time it has something to hand on.
    private mutating func open(_ state: inout State, into events: inout [TCPStreamEvent]) {
        guard state.connection == nil else { return }
        connectionCount += 1
        let connection = TCPConnection(index: connectionCount, client: state.client, server: state.server)
        state.connection = connection
        events.append(.opened(connection))
    }

    private static func events(_ outputs: [TCPStreamReassembler.Output], _ connection: TCPConnection, _ direction: TCPDirection) -> [TCPStreamEvent] {
        outputs.map { output in
            switch output {
            case let .data(bytes, packet, completedBy, time): .data(connection, direction, bytes, packet: packet, completedBy: completedBy, time: time)
            case let .gap(count, packet, time): .gap(connection, direction, count: count, packet: packet, time: time)
            }
        }
    }
}

