import DecafCapture
import Testing

@Suite("TCP reassembly")
struct ReassemblyTests {
    static let client = TCPEndpoint(address: IPAddress([10, 0, 0, 1]), port: 40_000)
    static let server = TCPEndpoint(address: IPAddress([10, 0, 0, 2]), port: 7447)
    static let time = CaptureTime(seconds: 0, nanoseconds: 0)

    /// A segment as a test writes it, with bytes of its own; `withSegment` shows it in place, as a
    /// capture reader would.
    struct Sent {
        var source = ReassemblyTests.client
        var destination = ReassemblyTests.server
        var sequence: UInt32
        var acknowledgment: UInt32 = 0
        var flags: TCPSegment.Flags
        var payload: [UInt8] = []
        var missing = 0

        func withSegment<R>(_ body: (TCPSegment) -> R) -> R {
            payload.withUnsafeBytes { payload in
                body(TCPSegment(source: source, destination: destination, sequence: sequence, acknowledgment: acknowledgment, flags: flags,
                                payload: payload, missingPayload: missing))
            }
        }
    }

    static func segment(_ sequence: UInt32, _ payload: [UInt8], flags: TCPSegment.Flags = .ack, missing: Int = 0) -> Sent {
        Sent(sequence: sequence, flags: flags, payload: payload, missing: missing)
    }

    /// Feeds segments and returns the stream: bytes, with `nil` standing for each missing byte.
    static func stream(_ segments: [Sent], finish: Bool = true) -> (bytes: [UInt8?], reassembler: TCPStreamReassembler) {
        var reassembler = TCPStreamReassembler()
        var bytes: [UInt8?] = []
        func take(_ output: TCPStreamReassembler.Output) {
            switch output {
            case let .data(data, _, _, _): bytes += data.map(Optional.some)
            case let .gap(count, _, _): bytes += Array(repeating: nil, count: count)
            }
        }
        for (number, segment) in segments.enumerated() {
            segment.withSegment { reassembler.add($0, packet: number + 1, time: time, take) }
        }
        if finish { reassembler.finish(take) }
        return (bytes, reassembler)
    }

    /// What a tracker reported, in words: the bytes of a data event are gone once it returns.
    static func describe(_ event: TCPStreamEvent) -> String {
        switch event {
        case let .opened(connection): "opened \(connection.client.port)"
        case let .gap(connection, _, count, packet, _): "gap \(count) on \(connection.client.port) at \(packet)"
        case let .data(connection, _, bytes, _, _, _): "data \(bytes.count) on \(connection.client.port)"
        case let .ended(_, direction, ending, packet, _): "\(ending) from \(direction == .clientToServer ? "client" : "server") at \(packet)"
        case .closed: "closed"
        case .joinedMidStream: "joined"
        }
    }

    /// A segment from the client (or the server) with its sequence, acknowledgment, flags and payload.
    static func from(_ client: Bool, _ sequence: UInt32, _ acknowledgment: UInt32, _ flags: TCPSegment.Flags, _ payload: [UInt8]) -> Sent {
        Sent(source: client ? Self.client : Self.server, destination: client ? Self.server : Self.client, sequence: sequence,
             acknowledgment: acknowledgment, flags: flags, payload: payload)
    }

    /// What `tracker` reports of `segments`, packets numbered from 1, in words.
    static func play(_ segments: [Sent], through tracker: inout TCPConnectionTracker) -> [String] {
        var kinds: [String] = []
        for (number, segment) in segments.enumerated() {
            segment.withSegment { tracker.add($0, packet: number + 1, time: Self.time) { kinds.append(Self.describe($0)) } }
        }
        return kinds
    }

    @Test("sequence numbers wrap past 2^32")
    func wrapAround() {
        let isn: UInt32 = 0xFFFF_FFFA
        let (bytes, _) = Self.stream([
            Self.segment(isn, [], flags: .syn),
            Self.segment(isn &+ 1, [1, 2, 3, 4]),
            Self.segment(isn &+ 5, [5, 6, 7, 8]),
            Self.segment(isn &+ 9, [9]),
        ])
        #expect(bytes == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test("out-of-order segments are held until the gap fills")
    func outOfOrder() {
        let (bytes, reassembler) = Self.stream([
            Self.segment(100, [], flags: .syn),
            Self.segment(105, [5, 6]),
            Self.segment(107, [7]),
            Self.segment(101, [1, 2, 3, 4]),
        ])
        #expect(bytes == [1, 2, 3, 4, 5, 6, 7])
        #expect(reassembler.retransmittedBytes == 0)
    }

    @Test("retransmissions and partial overlaps are trimmed")
    func overlaps() {
        let (bytes, reassembler) = Self.stream([
            Self.segment(0, [], flags: .syn),
            Self.segment(1, [1, 2, 3, 4]),
            Self.segment(1, [1, 2, 3, 4]),
            Self.segment(3, [3, 4, 5, 6]),
            Self.segment(9, [9, 10]),
            Self.segment(6, [6, 7, 8, 9]),
        ])
        #expect(bytes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(reassembler.retransmittedBytes == 4 + 2 + 1 + 1)
    }

    @Test("bytes lost by the capture or cut by the snapshot length are gaps, not glued together")
    func gaps() {
        let (lost, _) = Self.stream([Self.segment(0, [], flags: .syn), Self.segment(1, [1, 2]), Self.segment(6, [6])])
        #expect(lost == [1, 2, nil, nil, nil, 6])
        let (cut, _) = Self.stream([Self.segment(0, [], flags: .syn), Self.segment(1, [1, 2], missing: 3), Self.segment(6, [6])])
        #expect(cut == [1, 2, nil, nil, nil, 6])
    }

    @Test("a stream joined mid-way starts at its first captured byte")
    func midStream() {
        let (bytes, reassembler) = Self.stream([Self.segment(5000, [1, 2]), Self.segment(5002, [3])])
        #expect(bytes == [1, 2, 3])
        #expect(reassembler.startedMidStream)
    }

    @Test("held bytes are bounded: past the limit the missing bytes are declared a gap")
    func boundedHolding() {
        let chunk = [UInt8](repeating: 7, count: 1 << 20)
        var segments = [Self.segment(0, [], flags: .syn)]
        for index in 0..<5 { segments.append(Self.segment(UInt32(101 + index * chunk.count), chunk)) }
        let (bytes, reassembler) = Self.stream(segments, finish: false)
        #expect(bytes.prefix(100).allSatisfy { $0 == nil })
        #expect(bytes.count == 100 + 5 * chunk.count)
        #expect(reassembler.heldByteCount == 0)
    }

    @Test("the client is the side of the first SYN, even when the SYN-ACK is seen first")
    func clientSide() {
        var tracker = TCPConnectionTracker()
        let synAck = Sent(source: Self.server, destination: Self.client, sequence: 9, flags: [.syn, .ack])
        synAck.withSegment { tracker.add($0, packet: 1, time: Self.time) { _ in } }
        var opened: [TCPConnection] = []
        Sent(source: Self.server, destination: Self.client, sequence: 10, flags: .ack, payload: [0xDE]).withSegment {
            tracker.add($0, packet: 2, time: Self.time) { event in
                if case let .opened(connection) = event { opened.append(connection) }
            }
        }
        #expect(opened.count == 1)
        #expect(opened.first?.client == Self.client && opened.first?.server == Self.server)
    }

    @Test("a connection missing bytes the capture lost closes once each side acknowledged the other's FIN, not at the end of the capture")
    func lostBytesAcknowledged() {
        let from = Self.from
        var tracker = TCPConnectionTracker()
        let kinds = Self.play([
            from(true, 99, 0, .syn, []), from(false, 499, 100, [.syn, .ack], []), from(true, 100, 500, .ack, []),
            // Bytes 100..<104 were sent and received, but the capture lost them.
            from(true, 104, 500, .ack, [0x45, 0x46, 0x47, 0x48]),
            from(true, 108, 500, [.fin, .ack], []), from(false, 500, 109, [.fin, .ack], []), from(true, 109, 501, .ack, []),
        ], through: &tracker)
        let port = Self.client.port
        #expect(kinds == ["opened \(port)", "gap 4 on \(port) at 4", "data 4 on \(port)", "fin from client at 5", "fin from server at 6", "closed"],
                "each FIN said where it came, and closed by the last ACK, before finish(): \(kinds)")
        var atEnd: [String] = []
        tracker.finish { atEnd.append(Self.describe($0)) }
        #expect(atEnd.isEmpty)
    }

    @Test("a reset ends the connection at once and says who sent it; a FIN sent again is said once")
    func resetAndRepeatedFIN() {
        let from = Self.from
        var tracker = TCPConnectionTracker()
        let kinds = Self.play([
            from(true, 99, 0, .syn, []), from(false, 499, 100, [.syn, .ack], []), from(true, 100, 500, .ack, [1, 2]),
            from(true, 102, 500, [.fin, .ack], []), from(true, 102, 500, [.fin, .ack], []), from(false, 500, 103, [.rst, .ack], []),
        ], through: &tracker)
        let port = Self.client.port
        #expect(kinds == ["opened \(port)", "data 2 on \(port)", "fin from client at 4", "reset from server at 6", "closed"], "\(kinds)")
    }

    @Test("out-of-order bytes held across connections stay in a budget: the connection holding the most gives up waiting first")
    func heldBytesBudget() {
        var tracker = TCPConnectionTracker(heldBytesBudget: 100)
        func segment(_ clientPort: UInt16, _ sequence: UInt32, _ flags: TCPSegment.Flags, _ count: Int = 0) -> Sent {
            Sent(source: TCPEndpoint(address: Self.client.address, port: clientPort), sequence: sequence, flags: flags,
                 payload: [UInt8](repeating: 0xDE, count: count))
        }
        var events: [String] = []
        var packet = 0
        func add(_ segment: Sent) {
            packet += 1
            segment.withSegment { tracker.add($0, packet: packet, time: Self.time) { events.append(Self.describe($0)) } }
        }
        // Two connections each lose their first 10 bytes; the first then holds 60, the second 30.
        add(segment(1001, 99, .syn))
        add(segment(1002, 99, .syn))
        add(segment(1001, 110, .ack, 60))
        add(segment(1002, 110, .ack, 30))
        #expect(events.isEmpty && tracker.budgetReleases == 0)
        // 20 more for the second: 110 held in all, over the budget; the first (60) stops waiting.
        add(segment(1002, 140, .ack, 20))
        // The gap is noticed at the packet that went over the budget, and what was held is passed on.
        #expect(events == ["opened 1001", "gap 10 on 1001 at 5", "data 60 on 1001"])
        #expect(tracker.budgetReleases == 1)
    }

    @Test("past the limit of connections followed at once, the least recently active are closed early and counted")
    func connectionLimit() {
        var tracker = TCPConnectionTracker(connectionLimit: 8)
        var events: [String] = []
        var packet = 0
        func add(_ segment: Sent) {
            packet += 1
            segment.withSegment { tracker.add($0, packet: packet, time: Self.time) { events.append(Self.describe($0)) } }
        }
        // Nine connections each open and send a byte; the first then sends another, so the second
        // is the least recently active when the ninth opens.
        for port in UInt16(1001)...1008 {
            add(Sent(source: TCPEndpoint(address: Self.client.address, port: port), sequence: 99, flags: .syn))
            add(Sent(source: TCPEndpoint(address: Self.client.address, port: port), sequence: 100, flags: .ack, payload: [1]))
        }
        add(Sent(source: TCPEndpoint(address: Self.client.address, port: 1001), sequence: 101, flags: .ack, payload: [2]))
        events.removeAll()
        add(Sent(source: TCPEndpoint(address: Self.client.address, port: 1009), sequence: 99, flags: .syn))
        #expect(events == ["closed"] && tracker.connectionsClosedEarly == 1)
        // The closed one's next bytes start a new connection, joined mid-stream, which again makes
        // one too many: the next least active (1003) is closed first.
        events.removeAll()
        add(Sent(source: TCPEndpoint(address: Self.client.address, port: 1002), sequence: 101, flags: .ack, payload: [2]))
        #expect(events == ["closed", "opened 1002", "joined", "data 1 on 1002"] && tracker.connectionsClosedEarly == 2)
    }
}
