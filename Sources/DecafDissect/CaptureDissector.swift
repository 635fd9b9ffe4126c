import DecafCapture
import DecafWire

/// Dissects a pcap or pcapng capture fed in chunks: every TCP connection that speaks the protocol
/// is reassembled per direction and decoded by DecafWire's streaming decoder, each frame tagged
/// with its connection, direction, packets and time and handed to a sink in place. Errors in one
/// direction resynchronise on the next magic there and leave every other direction alone. Memory
/// stays bounded by the open connections, not by the size of the capture: packets are read where
/// the chunk holds them, and only bytes that must wait (a frame split across segments, a segment
/// that arrived early) are copied.
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
    /// The packets of the frame being handed out, kept to reuse its storage.
    private var framePackets: [Int] = []
    private var failed = false
    /// Set once `finishNext` has begun; `endError` is how the file ended, when it ended badly.
    private var finishing = false
    private var endError: CaptureError?
    /// The connection states are shared by copies of the dissector and skip exclusivity checks: one use at a time.
    private let use = ExclusiveUse("a CaptureDissector")

    /// A connection's dissection, shared rather than copied as its packets come and go. Only the
    /// dissector touches it, one access at a time, so its fields skip the runtime's exclusivity
    /// checks, which cost more per packet than the work they guard.
    private final class ConnectionState {
        let connection: TCPConnection
        /// nil until the first four payload bytes of either direction show the magic or not.
        @exclusivity(unchecked) var isTaken: Bool?
        @exclusivity(unchecked) var directions: PerDirection<DirectionState>
        /// Data that arrived before the decision, in order, with bytes of its own.
        @exclusivity(unchecked) var pending: [Pending] = []

        init(connection: TCPConnection, directions: PerDirection<DirectionState>) {
            self.connection = connection
            self.directions = directions
        }
    }

    /// A stream event kept while a connection is undecided.
    private enum Pending {
        case joinedMidStream(TCPDirection)
        case data(TCPDirection, [UInt8], packet: Int, completedBy: Int, time: CaptureTime)
        case gap(TCPDirection, count: Int, packet: Int, time: CaptureTime)
        case ended(TCPDirection, TCPStreamEvent.Ending, packet: Int, time: CaptureTime)

        /// The event kept for later, with bytes of its own.
        init(_ event: TCPStreamEvent) {
            switch event {
            case let .joinedMidStream(_, direction): self = .joinedMidStream(direction)
            case let .data(_, direction, bytes, packet, completedBy, time): self = .data(direction, Array(bytes), packet: packet, completedBy: completedBy, time: time)
            case let .gap(_, direction, count, packet, time): self = .gap(direction, count: count, packet: packet, time: time)
            case let .ended(_, direction, ending, packet, time): self = .ended(direction, ending, packet: packet, time: time)
            case .opened, .closed: preconditionFailure("only stream events wait for a connection's decision")
            }
        }
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

    /// Reads the next chunk of the file (borrowed for the call) and hands `sink` what it completes.
    /// After a damaged record the rest of the file is ignored: the connections are flushed and the
    /// damage reported, once.
    public mutating func append<Sink: CaptureSink>(_ chunk: UnsafeRawBufferPointer, to sink: inout Sink) {
        guard !failed else { return }
        use.enter()
        defer { use.leave() }
        // Moved out while they work, so what they find can be handled here.
        var reader = CaptureReader()
        var tracker = TCPConnectionTracker()
        swap(&reader, &self.reader)
        swap(&tracker, &self.tracker)
        do {
            try reader.read(chunk) { packet in
                tracker.add(packet) { handle($0, into: &sink) }
            }
        } catch {
            end(at: error, flushing: &tracker, into: &sink)
        }
        swap(&reader, &self.reader)
        swap(&tracker, &self.tracker)
    }

    /// The end of this file, whose capture goes on in the next one fed (tcpdump -C or -G parts):
    /// connections go on across the two. A file that ended badly ends the capture as `append`'s
    /// damage does.
    public mutating func startNextFile<Sink: CaptureSink>(to sink: inout Sink) {
        guard !failed else { return }
        use.enter()
        defer { use.leave() }
        do {
            try reader.startNextFile()
        } catch {
            var tracker = TCPConnectionTracker()
            swap(&tracker, &self.tracker)
            end(at: error, flushing: &tracker, into: &sink)
            swap(&tracker, &self.tracker)
        }
    }

    /// The capture is damaged at `error`: every connection is flushed, the damage said once, and
    /// the rest of the input ignored.
    private mutating func end<Sink: CaptureSink>(at error: CaptureError, flushing tracker: inout TCPConnectionTracker, into sink: inout Sink) {
        failed = true
        tracker.finish { handle($0, into: &sink) }
        sink.note(.captureError(error))
    }

    /// The end of the file a connection at a time: flushes the next connection still open into
    /// `sink` (then says if the file ended inside a record); false when all are out. Handle each
    /// before asking for the next, and memory holds one connection's frames, not every open one's
    /// (connections waiting for lost bytes hold up to `TCPStreamReassembler.maximumHeldBytes`).
    public mutating func finishNext<Sink: CaptureSink>(to sink: inout Sink) -> Bool {
        use.enter()
        defer { use.leave() }
        if !finishing {
            guard !failed else { return false }
            failed = true
            finishing = true
            do { try reader.finish() } catch { endError = error }
        }
        var tracker = TCPConnectionTracker()
        swap(&tracker, &self.tracker)
        let flushed = tracker.finishNext { handle($0, into: &sink) }
        swap(&tracker, &self.tracker)
        if flushed { return true }
        guard let error = endError else { return false }
        endError = nil
        sink.note(.captureError(error))
        return true
    }

    /// The end of the file, every connection flushed into `sink`.
    public mutating func finish<Sink: CaptureSink>(to sink: inout Sink) {
        while finishNext(to: &sink) {}
    }

    /// The events the next chunk of the file completes, as owned values.
    public mutating func append(_ chunk: ArraySlice<UInt8>) -> [CaptureEvent] {
        var list = CaptureEventList()
        chunk.withUnsafeBytes { append($0, to: &list) }
        return list.events
    }

    /// The events the end of the file brings, as owned values.
    public mutating func finish() -> [CaptureEvent] {
        var list = CaptureEventList()
        finish(to: &list)
        return list.events
    }

    private mutating func handle<Sink: CaptureSink>(_ event: TCPStreamEvent, into sink: inout Sink) {
        switch event {
        case let .opened(connection):
            let fresh = DirectionState(dissector: StreamDissector(options: options))
            let state = ConnectionState(connection: connection, directions: PerDirection(both: fresh))
            if let port {
                state.isTaken = connection.client.port == port || connection.server.port == port
                if state.isTaken == false { ignoredConnections += 1 }
            }
            connections[connection.index] = state
            if state.isTaken == true { sink.note(.connectionOpened(connection)) }
        case let .closed(connection):
            guard let state = connections.removeValue(forKey: connection.index) else { return }
            if state.isTaken == nil { decide(state, sawEnd: true, into: &sink) }
            guard state.isTaken == true else { return }
            for direction in TCPDirection.allCases { dissect(direction, of: state, bytes: nil, into: &sink) }
            sink.note(.connectionClosed(connection))
        case let .joinedMidStream(connection, _), let .data(connection, _, _, _, _, _), let .gap(connection, _, _, _, _),
             let .ended(connection, _, _, _, _):
            guard let state = connections[connection.index] else { return }
            switch state.isTaken {
            case true?:
                feed(event, to: state, into: &sink)
            case nil:
                state.pending.append(Pending(event))
                decide(state, sawEnd: false, into: &sink)
            case false?:
                break
            }
        }
    }

    /// Takes or ignores an undecided connection once a direction has shown four payload bytes.
    private mutating func decide<Sink: CaptureSink>(_ state: ConnectionState, sawEnd: Bool, into sink: inout Sink) {
        var firstBytes = PerDirection<[UInt8]>(both: [])
        var decided: Bool?
        for event in state.pending {
            switch event {
            case let .data(direction, bytes, _, _, _):
                firstBytes[direction] += bytes.prefix(4)
                if firstBytes[direction].count >= 4 {
                    decided = firstBytes[direction].prefix(4).elementsEqual(FrameHeader.magicBytes)
                }
            case .gap:
                decided = false
            case .joinedMidStream, .ended:
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
        sink.note(.connectionOpened(state.connection))
        let connection = state.connection
        for event in pending {
            switch event {
            case let .joinedMidStream(direction):
                feed(.joinedMidStream(connection, direction), to: state, into: &sink)
            case let .data(direction, bytes, packet, completedBy, time):
                bytes.withUnsafeBytes { feed(.data(connection, direction, $0, packet: packet, completedBy: completedBy, time: time), to: state, into: &sink) }
            case let .gap(direction, count, packet, time):
                feed(.gap(connection, direction, count: count, packet: packet, time: time), to: state, into: &sink)
            case let .ended(direction, ending, packet, time):
                feed(.ended(connection, direction, ending, packet: packet, time: time), to: state, into: &sink)
            }
        }
    }

    private mutating func feed<Sink: CaptureSink>(_ event: TCPStreamEvent, to state: ConnectionState, into sink: inout Sink) {
        let connection = state.connection
        switch event {
        case let .joinedMidStream(_, direction):
            _ = state.directions[direction].dissector.skipGap(0)
            sink.note(.joinedMidStream(connection, direction))
        case let .data(_, direction, bytes, packet, completedBy, time):
            let received = state.directions[direction].received
            state.directions[direction].spans.append(Span(start: received, end: received + bytes.count, packet: packet, completedBy: completedBy, time: time))
            state.directions[direction].received += bytes.count
            dissect(direction, of: state, bytes: bytes, into: &sink)
        case let .gap(_, direction, count, packet, time):
            let received = state.directions[direction].received
            let dropped = state.directions[direction].dissector.skipGap(count)
            sink.note(.gap(connection, direction, count: count, streamOffset: received, droppedBytes: dropped, packet: packet))
            state.directions[direction].spans.append(Span(start: received, end: received + count, packet: packet, completedBy: packet, time: time))
            state.directions[direction].received += count
        case let .ended(_, direction, ending, packet, time):
            sink.note(.ended(connection, direction, ending, packet: packet, time: time))
        case .opened, .closed:
            break
        }
    }

    /// Dissects the next `bytes` of one direction, or its end when nil, handing `sink` what they complete.
    private mutating func dissect<Sink: CaptureSink>(_ direction: TCPDirection, of state: ConnectionState, bytes: UnsafeRawBufferPointer?,
                                                     into sink: inout Sink) {
        // Moved out while the dissector works, so its frames can be placed in their packets.
        var spans: [Span] = []
        swap(&spans, &state.directions[direction].spans)
        dissect(direction, of: state, bytes: bytes, spans: spans, into: &sink)
        let settled = state.directions[direction].dissector.streamOffset
        if let keep = spans.firstIndex(where: { $0.end > settled }) {
            spans.removeFirst(keep)
        } else if !spans.isEmpty {
            spans.removeAll(keepingCapacity: true)
        }
        swap(&spans, &state.directions[direction].spans)
    }

    /// `dissect`'s work, with the spans passed in: a variable its functions captured would be
    /// checked for overlapping accesses on every frame.
    private mutating func dissect<Sink: CaptureSink>(_ direction: TCPDirection, of state: ConnectionState, bytes: UnsafeRawBufferPointer?,
                                                     spans: [Span], into sink: inout Sink) {
        let connection = state.connection
        func frame(_ parts: FrameParts) {
            report(parts, spans: spans, connection: connection, direction: direction, into: &sink)
        }
        func resynchronized(_ skipped: Int, _ resumedAt: Int?) {
            sink.note(.resynchronized(connection, direction, skipped: skipped, resumedAt: resumedAt))
        }
        if let bytes {
            state.directions[direction].dissector.append(bytes, frame: frame, resynchronized: resynchronized)
        } else {
            state.directions[direction].dissector.finish(frame: frame, resynchronized: resynchronized)
        }
    }

    /// Numbers a frame among the capture's and hands it to `sink` with the packets that carried it.
    private mutating func report<Sink: CaptureSink>(_ parts: FrameParts, spans: [Span], connection: TCPConnection, direction: TCPDirection,
                                                    into sink: inout Sink) {
        frameCount += 1
        var parts = parts
        parts.index = frameCount
        // Most frames lie in the bytes of the segment that completed them.
        if let last = spans.last, last.start <= parts.streamOffset, parts.streamOffset < last.end {
            var packet = last.packet
            withUnsafePointer(to: &packet) { packet in
                sink.frame(CapturedFrameView(parts: parts, connection: connection, direction: direction, packets: UnsafeBufferPointer(start: packet, count: 1),
                                             completedBy: last.completedBy, time: last.time))
            }
            return
        }
        let end = parts.streamOffset + max(parts.bytes.count, 1)
        // The spans are in stream order: those of this frame follow one another.
        framePackets.removeAll(keepingCapacity: true)
        var last = spans.last
        if let first = spans.firstIndex(where: { $0.end > parts.streamOffset }) {
            for span in spans[first...] {
                guard span.start < end else { break }
                if !framePackets.contains(span.packet) { framePackets.append(span.packet) }
                last = span
            }
        }
        if framePackets.count > 1 { framePackets.sort() }
        let completedBy = last?.completedBy ?? 0
        let time = last?.time ?? CaptureTime(seconds: 0, nanoseconds: 0)
        framePackets.withUnsafeBufferPointer { packets in
            sink.frame(CapturedFrameView(parts: parts, connection: connection, direction: direction, packets: packets, completedBy: completedBy, time: time))
        }
    }
}
