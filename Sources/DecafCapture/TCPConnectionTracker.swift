/// Follows every TCP connection of a capture and reassembles both directions of each. A SYN on
/// ports already in use starts a new connection (port reuse); a connection whose start was not
/// captured is joined mid-stream. Events are handed to a closure as they happen, with the bytes of
/// in-order segments passed on in place.
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
    /// Connections followed at once; past it, the least recently active eighth of them are closed
    /// early (flushed as at the end of the capture), so memory does not grow with connections that
    /// never end in the capture. Their later packets start new connections, joined mid-stream.
    public let connectionLimit: Int
    /// Connections closed early because `connectionLimit` were open.
    public private(set) var connectionsClosedEarly = 0
    /// Out-of-order bytes held now, over every connection.
    private var heldBytes = 0
    /// The states below are shared by copies of the tracker and skip exclusivity checks: one use at a time.
    private let use = ExclusiveUse("a TCPConnectionTracker")

    /// Each open connection's state, in the slot `slots` gives it; nil in a slot no connection uses.
    private var slots: [Key: Int] = [:]
    private var states: [State?] = []
    private var freeSlots: [Int] = []
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

    /// A connection's state, shared rather than copied as its packets come and go. Only the
    /// tracker touches it, one access at a time, so its fields skip the runtime's exclusivity
    /// checks, which cost more per packet than the work they guard.
    private final class State {
        let key: Key
        @exclusivity(unchecked) var client: TCPEndpoint
        @exclusivity(unchecked) var server: TCPEndpoint
        /// The client's initial sequence number, when its SYN was captured.
        @exclusivity(unchecked) var clientSYN: UInt32?
        /// False until a SYN or a payload byte settles which side is the client.
        @exclusivity(unchecked) var isSettled: Bool
        @exclusivity(unchecked) var connection: TCPConnection?
        /// The last packet that carried a segment of the connection.
        @exclusivity(unchecked) var lastPacket = 0
        @exclusivity(unchecked) var streams = PerDirection(both: TCPStreamReassembler())
        @exclusivity(unchecked) var finished: Set<TCPDirection> = []
        /// The sequence number after each direction's FIN, once it was captured.
        @exclusivity(unchecked) var finEnd = PerDirection<UInt32?>(both: nil)
        /// Each direction's FIN or reset not yet passed on: it waits for the bytes before it.
        @exclusivity(unchecked) var unsaidEnd = PerDirection<(ending: TCPStreamEvent.Ending, packet: Int, time: CaptureTime)?>(both: nil)
        /// Directions whose FIN the other side acknowledged: it had every byte before it, so bytes
        /// the capture still lacks there were lost by the capture and will never come.
        @exclusivity(unchecked) var acknowledgedFIN: Set<TCPDirection> = []

        /// A connection first seen in `segment`: a SYN's sender is the client, a SYN-ACK's receiver is.
        init(_ segment: TCPSegment, key: Key) {
            self.key = key
            let synAck = segment.flags.isSuperset(of: [.syn, .ack])
            client = synAck ? segment.destination : segment.source
            server = synAck ? segment.source : segment.destination
            isSettled = segment.flags.contains(.syn)
        }

        func direction(of segment: TCPSegment) -> TCPDirection {
            segment.source == client ? .clientToServer : .serverToClient
        }
    }

    public init(heldBytesBudget: Int = 8 << 20, connectionLimit: Int = 10_000) {
        self.heldBytesBudget = heldBytesBudget
        self.connectionLimit = max(1, connectionLimit)
    }

    /// Hands `deliver` the events captured packet `packet` brings.
    public mutating func add(_ packet: CapturedPacket, _ deliver: (TCPStreamEvent) -> Void) {
        if packet.originalLength > packet.bytes.count { truncatedPackets += 1 }
        let segment: TCPSegment
        do {
            segment = try PacketDecoder.segment(of: packet)
        } catch {
            skippedPackets[error.kind, default: 0] += 1
            return
        }
        add(segment, packet: packet.number, time: packet.time, deliver)
    }

    /// Hands `deliver` the events one segment brings.
    public mutating func add(_ segment: TCPSegment, packet: Int, time: CaptureTime, _ deliver: (TCPStreamEvent) -> Void) {
        use.enter()
        defer { use.leave() }
        let key = Key(segment)
        let opensConnection = segment.flags.contains(.syn) && !segment.flags.contains(.ack)
        var slot = slots[key]
        if opensConnection, let existing = slot, states[existing]?.clientSYN != segment.sequence {
            close(existing, deliver)
            slot = nil
        }
        let state = slot.flatMap { states[$0] } ?? State(segment, key: key)
        let stored = slot ?? store(state)
        state.lastPacket = packet
        if slot == nil, slots.count > connectionLimit { closeLeastActive(deliver) }
        if opensConnection { state.clientSYN = segment.sequence }
        if !state.isSettled && !segment.payload.isEmpty && state.connection == nil {
            (state.client, state.server) = (segment.source, segment.destination)
            state.isSettled = true
        }
        let direction = state.direction(of: segment)
        // A direction that starts without its SYN is joined mid-stream; it says so before its first bytes.
        let joinsMidStream = !state.streams[direction].hasStarted && !segment.flags.contains(.syn)
        let heldBefore = state.streams[direction].heldByteCount
        reassemble(state, direction, .add(segment, packet: packet, time: time), joinsMidStream: joinsMidStream, deliver)
        heldBytes += state.streams[direction].heldByteCount - heldBefore
        if segment.flags.contains(.fin) {
            if state.finished.insert(direction).inserted {
                state.unsaidEnd[direction] = (.fin, packet, time)
                sayEnd(of: direction, state, deliver)
            }
            state.finEnd[direction] = segment.sequence &+ UInt32(truncatingIfNeeded: segment.sequenceLength)
        }
        if segment.flags.contains(.ack), let end = state.finEnd[direction.reversed], Int32(bitPattern: segment.acknowledgment &- end) >= 0 {
            state.acknowledgedFIN.insert(direction.reversed)
        }
        let allDelivered = state.streams.clientToServer.heldByteCount == 0 && state.streams.serverToClient.heldByteCount == 0
        if segment.flags.contains(.rst) { state.unsaidEnd[direction] = (.reset, packet, time) }
        if segment.flags.contains(.rst) || (state.finished.count == 2 && (allDelivered || state.acknowledgedFIN.count == 2)) {
            close(stored, deliver)
        }
        if heldBytes > heldBytesBudget { keepHeldBytesInBudget(packet: packet, time: time, deliver) }
    }

    /// What a direction's reassembler is asked to do.
    private enum Reassembly {
        case add(TCPSegment, packet: Int, time: CaptureTime)
        case stopWaiting(packet: Int, time: CaptureTime)
        case finish
    }

    /// Has one direction's reassembler do `work`, handing on what it outputs as events of the
    /// connection, which is opened (and the direction said to be joined mid-stream) first.
    private mutating func reassemble(
        _ state: State, _ direction: TCPDirection, _ work: Reassembly, joinsMidStream: Bool, _ deliver: (TCPStreamEvent) -> Void
    ) {
        // Moved out of the state while it works, so the state can be updated from its outputs.
        var stream = TCPStreamReassembler()
        swap(&stream, &state.streams[direction])
        var announced = false
        func output(_ output: TCPStreamReassembler.Output) {
            if state.connection == nil {
                connectionCount += 1
                let connection = TCPConnection(index: connectionCount, client: state.client, server: state.server)
                state.connection = connection
                deliver(.opened(connection))
            }
            guard let connection = state.connection else { return }
            if !announced {
                announced = true
                if joinsMidStream { deliver(.joinedMidStream(connection, direction)) }
            }
            switch output {
            case let .data(bytes, packet, completedBy, time):
                deliver(.data(connection, direction, bytes, packet: packet, completedBy: completedBy, time: time))
            case let .gap(count, packet, time):
                deliver(.gap(connection, direction, count: count, packet: packet, time: time))
            }
        }
        switch work {
        case let .add(segment, packet, time): stream.add(segment, packet: packet, time: time, output)
        case let .stopWaiting(packet, time): stream.stopWaiting(packet: packet, time: time, output)
        case .finish: stream.finish(output)
        }
        swap(&stream, &state.streams[direction])
    }

    /// Passes on the FIN or reset that ended `direction`, once the connection was heard of and the
    /// direction holds no bytes that came before it.
    private func sayEnd(of direction: TCPDirection, _ state: State, _ deliver: (TCPStreamEvent) -> Void) {
        guard let end = state.unsaidEnd[direction], let connection = state.connection, state.streams[direction].heldByteCount == 0 else { return }
        state.unsaidEnd[direction] = nil
        deliver(.ended(connection, direction, end.ending, packet: end.packet, time: end.time))
    }

    /// Closes the least recently active eighth of the connections followed.
    private mutating func closeLeastActive(_ deliver: (TCPStreamEvent) -> Void) {
        let byActivity = states.indices.compactMap { slot in states[slot].map { (slot: slot, lastPacket: $0.lastPacket) } }
            .sorted { $0.lastPacket < $1.lastPacket }
        for (slot, _) in byActivity.prefix(max(1, connectionLimit / 8)) {
            close(slot, deliver)
            connectionsClosedEarly += 1
        }
    }

    /// Puts a new connection's state in a free slot; returns the slot.
    private mutating func store(_ state: State) -> Int {
        let fresh = freeSlots.popLast() ?? states.count
        if fresh == states.count { states.append(nil) }
        states[fresh] = state
        slots[state.key] = fresh
        return fresh
    }

    /// While all connections together hold more than `heldBytesBudget` out-of-order bytes, the
    /// direction holding the most stops waiting for what it misses: its gaps are reported now
    /// (noticed at `packet`) and what it held is passed on.
    private mutating func keepHeldBytesInBudget(packet: Int, time: CaptureTime, _ deliver: (TCPStreamEvent) -> Void) {
        while heldBytes > heldBytesBudget {
            var largest: (slot: Int, direction: TCPDirection, bytes: Int)?
            for (slot, state) in states.enumerated() {
                guard let state else { continue }
                for direction in TCPDirection.allCases where state.streams[direction].heldByteCount > largest?.bytes ?? 0 {
                    largest = (slot, direction, state.streams[direction].heldByteCount)
                }
            }
            guard let largest, let state = states[largest.slot] else { return }
            heldBytes -= largest.bytes
            budgetReleases += 1
            reassemble(state, largest.direction, .stopWaiting(packet: packet, time: time), joinsMidStream: false, deliver)
        }
    }

    /// The end of the capture: every connection still open is flushed and closed, in the order
    /// the connections opened.
    public mutating func finish(_ deliver: (TCPStreamEvent) -> Void) {
        while finishNext(deliver) {}
    }

    /// The end of the capture a connection at a time, in the order the connections opened: flushes
    /// and closes the next one still open, handing `deliver` its events; false when none was left.
    /// A caller that handles each before asking for the next holds one connection's held bytes at
    /// a time.
    public mutating func finishNext(_ deliver: (TCPStreamEvent) -> Void) -> Bool {
        use.enter()
        defer { use.leave() }
        if closingOrder.isEmpty {
            closingOrder = states.compactMap { $0 }.sorted { ($0.connection?.index ?? .max) > ($1.connection?.index ?? .max) }.map(\.key)
        }
        while let key = closingOrder.popLast() {
            guard let slot = slots[key] else { continue }
            close(slot, deliver)
            return true
        }
        return false
    }

    private mutating func close(_ slot: Int, _ deliver: (TCPStreamEvent) -> Void) {
        guard let state = states[slot] else { return }
        states[slot] = nil
        slots[state.key] = nil
        freeSlots.append(slot)
        for direction in TCPDirection.allCases {
            heldBytes -= state.streams[direction].heldByteCount
            // A connection whose every byte was held behind a loss is first heard of here.
            reassemble(state, direction, .finish, joinsMidStream: false, deliver)
            retransmittedBytes += state.streams[direction].retransmittedBytes
        }
        for direction in TCPDirection.allCases { sayEnd(of: direction, state, deliver) }
        guard let connection = state.connection else { return }
        deliver(.closed(connection))
    }
}
