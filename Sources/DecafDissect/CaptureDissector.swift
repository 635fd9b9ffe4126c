import DecafCapture
import DecafWire

/// Dissects a pcap or pcapng capture fed in chunks: every TCP connection that speaks the protocol
/// is reassembled per direction and decoded by DecafWire's streaming decoder, each frame tagged
/// with its connection, direction, packets and time. Errors in one direction resynchronise on the
/// next magic there and leave every other direction alone. Memory stays bounded by the open
/// connections, not by the size of the capture.
public struct CaptureDissector {
    public let options: DecodeOptions
    /// Take connections with this port at either end; without it, connections whose first
    /// payload bytes are the magic.
    public let port: UInt16?

    public private(set) var reader = CaptureReader()
    public private(set) var tracker = TCPConnectionTracker()
    /// Connections with payload that were not taken as the protocol's.
    public private(set) var ignoredConnections = 0

    private var connections: [Int: ConnectionState] = [:]
    private var frameCount = 0
    private var failed = false
    /// Set once `finishNext` has begun; `endError` is how the file ended, when it ended badly.
    private var finishing = false
    private var endError: CaptureError?

    private struct ConnectionState {
        var connection: TCPConnection
        /// nil until the first four payload bytes of either direction show the magic or not.
        var isTaken: Bool?
        var directions: PerDirection<DirectionState>
        /// Data that arrived before the decision, in order.
        var pending: [TCPStreamEvent] = []
    }

    private struct DirectionState {
        var dissector: StreamDissector
        /// Which packet brought which stream bytes, for the frames not yet complete.
        var spans: [Span] = []
        var received = 0
    }

    private struct Span {
        var start: Int
        var end: Int
        var packet: Int
        var completedBy: Int
        var time: CaptureTime
    }

    public init(options: DecodeOptions = DecodeOptions(), port: UInt16? = nil) {
        self.options = options
        self.port = port
    }

    /// The events the next chunk of the file completes.
    public mutating func append(_ chunk: ArraySlice<UInt8>) -> [CaptureEvent] {
        var all: [CaptureEvent] = []
        append(chunk) { all += $0 }
        return all
    }

    /// The events the next chunk of the file completes, handed to `deliver` a few at a time (those
    /// of one segment's bytes): a stream that stops waiting for lost bytes passes on megabytes at
    /// once, and its frames need not all be held before any is shown.
    public mutating func append(_ chunk: ArraySlice<UInt8>, each deliver: ([CaptureEvent]) -> Void) {
        guard !failed else { return }
        reader.append(chunk)
        var events: [CaptureEvent] = []
        do {
            while let packet = try reader.nextPacket() {
                for event in tracker.add(packet) {
                    handle(event, into: &events)
                    if !events.isEmpty {
                        deliver(events)
                        events.removeAll(keepingCapacity: true)
                    }
                }
            }
        } catch {
            failed = true
            end(into: &events)
            events.append(.captureError(error))
            deliver(events)
        }
    }

    /// The events the end of the file brings: connections flushed, and an error if the file
    /// ended inside a record.
    public mutating func finish() -> [CaptureEvent] {
        var events: [CaptureEvent] = []
        while let next = finishNext() { events += next }
        return events
    }

    /// The end of the file a connection at a time: the events of flushing the next connection
    /// still open (then the error, if the file ended inside a record), nil when all are out. Handle
    /// each before asking for the next, and memory holds one connection's frames, not every open
    /// one's (connections waiting for lost bytes hold up to `TCPStreamReassembler.maximumHeldBytes`).
    public mutating func finishNext() -> [CaptureEvent]? {
        if !finishing {
            guard !failed else { return nil }
            failed = true
            finishing = true
            do { try reader.finish() } catch { endError = error }
        }
        if let flushed = tracker.finishNext() {
            var events: [CaptureEvent] = []
            for event in flushed { handle(event, into: &events) }
            return events
        }
        guard let error = endError else { return nil }
        endError = nil
        return [.captureError(error)]
    }

    private mutating func end(into events: inout [CaptureEvent]) {
        for event in tracker.finish() { handle(event, into: &events) }
    }

    private mutating func handle(_ event: TCPStreamEvent, into events: inout [CaptureEvent]) {
        switch event {
        case let .opened(connection):
            let fresh = DirectionState(dissector: StreamDissector(options: options))
            var state = ConnectionState(connection: connection, directions: PerDirection(both: fresh))
            if let port {
                state.isTaken = connection.client.port == port || connection.server.port == port
                if state.isTaken == false { ignoredConnections += 1 }
            }
            connections[connection.index] = state
            if state.isTaken == true { events.append(.connectionOpened(connection)) }
        case let .closed(connection):
            guard var state = connections.removeValue(forKey: connection.index) else { return }
            if state.isTaken == nil { decide(&state, sawEnd: true, into: &events) }
            guard state.isTaken == true else { return }
            for direction in TCPDirection.allCases { finish(direction, of: &state, into: &events) }
        case let .joinedMidStream(connection, _), let .data(connection, _, _, _, _, _), let .gap(connection, _, _, _, _):
            // Taken out and put back, so the decoders' buffers are never copied on the way.
            guard var state = connections.removeValue(forKey: connection.index) else { return }
            switch state.isTaken {
            case true?:
                feed(event, to: &state, into: &events)
            case nil:
                state.pending.append(event)
                decide(&state, sawEnd: false, into: &events)
            case false?:
                break
            }
            connections[connection.index] = state
        }
    }

    /// Takes or ignores an undecided connection once a direction has shown four payload bytes.
    private mutating func decide(_ state: inout ConnectionState, sawEnd: Bool, into events: inout [CaptureEvent]) {
        var firstBytes = PerDirection<[UInt8]>(both: [])
        var decided: Bool?
        for event in state.pending {
            switch event {
            case let .data(_, direction, bytes, _, _, _):
                firstBytes[direction] += bytes.prefix(4)
                if firstBytes[direction].count >= 4 {
                    decided = firstBytes[direction].prefix(4).elementsEqual(FrameHeader.magicBytes)
                }
            case .gap:
                decided = false
            default:
                continue
            }
            if decided != nil { break }
        }
        guard let decided = decided ?? (sawEnd ? false : nil) else { return }
        state.isTaken = decided
        let pending = state.pending
        state.pending = []
        guard decided else {
            ignoredConnections += 1
            return
        }
        events.append(.connectionOpened(state.connection))
        for event in pending { feed(event, to: &state, into: &events) }
    }

    private mutating func feed(_ event: TCPStreamEvent, to state: inout ConnectionState, into events: inout [CaptureEvent]) {
        let connection = state.connection
        switch event {
        case let .joinedMidStream(_, direction):
            _ = state.directions[direction].dissector.skipGap(0)
            events.append(.joinedMidStream(connection, direction))
        case let .data(_, direction, bytes, packet, completedBy, time):
            let received = state.directions[direction].received
            state.directions[direction].spans.append(Span(start: received, end: received + bytes.count, packet: packet, completedBy: completedBy, time: time))
            state.directions[direction].received += bytes.count
            let found = state.directions[direction].dissector.append(bytes)
            report(found, flow: &state.directions[direction], connection: connection, direction: direction, into: &events)
        case let .gap(_, direction, count, packet, time):
            let received = state.directions[direction].received
            let dropped = state.directions[direction].dissector.skipGap(count)
            events.append(.gap(connection, direction, count: count, streamOffset: received, droppedBytes: dropped, packet: packet))
            state.directions[direction].spans.append(Span(start: received, end: received + count, packet: packet, completedBy: packet, time: time))
            state.directions[direction].received += count
        case .opened, .closed:
            break
        }
    }

    private mutating func finish(_ direction: TCPDirection, of state: inout ConnectionState, into events: inout [CaptureEvent]) {
        let found = state.directions[direction].dissector.finish()
        report(found, flow: &state.directions[direction], connection: state.connection, direction: direction, into: &events)
    }

    private mutating func report(_ found: [DissectionEvent], flow: inout DirectionState, connection: TCPConnection,
                                 direction: TCPDirection, into events: inout [CaptureEvent]) {
        for event in found {
            switch event {
            case var .frame(record):
                frameCount += 1
                record.index = frameCount
                let end = record.streamOffset + max(record.bytes.count, 1)
                // The spans are in stream order: those of this frame follow one another.
                var packets: [Int] = []
                var last = flow.spans.last
                if let first = flow.spans.firstIndex(where: { $0.end > record.streamOffset }) {
                    for span in flow.spans[first...] {
                        guard span.start < end else { break }
                        if !packets.contains(span.packet) { packets.append(span.packet) }
                        last = span
                    }
                }
                packets.sort()
                events.append(.frame(CapturedFrame(
                    record: record, connection: connection, direction: direction,
                    packets: packets,
                    completedBy: last?.completedBy ?? 0,
                    time: last?.time ?? CaptureTime(seconds: 0, nanoseconds: 0)
                )))
            case let .resynchronized(skipped, resumedAt):
                events.append(.resynchronized(connection, direction, skipped: skipped, resumedAt: resumedAt))
            }
        }
        let settled = flow.dissector.streamOffset
        if let keep = flow.spans.firstIndex(where: { $0.end > settled }) {
            flow.spans.removeFirst(keep)
        } else if !flow.spans.isEmpty {
            flow.spans.removeAll(keepingCapacity: true)
        }
    }
}
