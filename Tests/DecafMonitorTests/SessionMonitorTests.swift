import DecafCapture
import DecafMonitor
import DecafWire
import Testing

/// What a session's connections together show: a message reported read again after a reconnect.
@Suite("session monitor")
struct SessionMonitorTests {
    static let session = SessionID(rawValue: 0x444C)

    /// A frame at `seconds` into the capture: a DATA frame, or a READ_RECEIPT (sequence
    /// `receiptCounter` of its sender) reporting message `sequence` read.
    static func frame(_ type: MessageType, _ sequence: UInt32, timestamp: UInt32 = 1_700_000_000, receiptCounter: UInt32 = 1,
                      at seconds: Int64 = 0) -> MonitoredFrame {
        let header = FrameHeader(messageType: type, sequence: SequenceNumber(category: .normal, counter: type == .readReceipt ? receiptCounter : sequence),
                                 timestamp: timestamp, sessionID: session, bodyLength: 8)
        var frame = MonitoredFrame(number: 1, packet: 1, time: CaptureTime(seconds: 1_700_000_000 + seconds, nanoseconds: 0), header: header,
                                   acceptance: .byEveryReceiver)
        if type == .readReceipt { frame.readReceipt = ReadReceipt(sequence: SequenceNumber(category: .normal, counter: sequence)) }
        return frame
    }

    static let server = TCPEndpoint(address: IPAddress([10, 0, 0, 2]), port: 7447)

    /// Connection `index` from client port `port` of `address` to the server.
    static func connection(_ index: Int, port: UInt16 = 50_000, address: IPAddress = IPAddress([10, 0, 0, 1]), server: TCPEndpoint = server) -> TCPConnection {
        TCPConnection(index: index, client: TCPEndpoint(address: address, port: port), server: server)
    }

    /// What the second receipt shows, after message 5 was sent and reported read on connection 1,
    /// then sent again on `second` with `timestamp` and reported read there `after` seconds.
    static func secondReceipt(timestamp: UInt32 = 1_700_000_000, sameReceipt: Bool = false, after seconds: Int64 = 2,
                              on second: TCPConnection = connection(2, port: 50_001)) -> SessionMonitor.Outcome {
        var sessions = SessionMonitor()
        _ = sessions.take(frame(.data, 5), from: .client, on: connection(1))
        _ = sessions.take(frame(.readReceipt, 5), from: .server, on: connection(1))
        _ = sessions.take(frame(.data, 5, timestamp: timestamp), from: .client, on: second)
        return sessions.take(frame(.readReceipt, 5, receiptCounter: sameReceipt ? 1 : 2, at: seconds), from: .server, on: second)
    }

    @Test("a repeat after a reconnect reported read again is a delivery twice (REPLAY-1) for the end that reported it; a new message, a receipt sent again or one on the same connection are not")
    func deliveredAgainAfterReconnect() {
        guard case let .failed(verdict) = Self.secondReceipt() else {
            Issue.record("expected a failure")
            return
        }
        #expect(verdict.end == .server && verdict.requirement == .replay1 && verdict.cause == "delivered-again-after-reconnect" && verdict.connection == 2)
        #expect(verdict.message.contains("reported read on connection #1"), "\(verdict.message)")
        if case .nothing = Self.secondReceipt(timestamp: 1_700_000_009) {} else { Issue.record("a new timestamp is a new message") }
        if case .nothing = Self.secondReceipt(sameReceipt: true) {} else { Issue.record("a receipt sent again is one receipt") }
        if case .nothing = Self.secondReceipt(on: Self.connection(1)) {} else { Issue.record("within a connection, ConnectionMonitor judges it") }
        // Another client that happens to have the same 16-bit session, or another server: not the same session.
        if case .nothing = Self.secondReceipt(on: Self.connection(2, address: IPAddress([10, 0, 0, 9]))) {} else { Issue.record("another client address") }
        let other = TCPEndpoint(address: IPAddress([10, 0, 0, 2]), port: 7448)
        if case .nothing = Self.secondReceipt(on: Self.connection(2, port: 50_001, server: other)) {} else { Issue.record("another server endpoint") }
        if case .notJudged(.server, _) = Self.secondReceipt(after: 61) {} else { Issue.record("past the replay window a receiver may forget") }
    }

    /// What each of a session's connections, shown every `interval` milliseconds, made of its pace.
    static func reconnects(_ count: Int, every interval: Int64, address: (Int) -> IPAddress = { _ in IPAddress([10, 0, 0, 1]) }) -> [SessionMonitor.Outcome] {
        var sessions = SessionMonitor()
        return (0..<count).map { attempt in
            var first = frame(.control, 1)
            let milliseconds = Int64(attempt) * interval
            first.time = CaptureTime(seconds: 1_700_000_000 + milliseconds / 1000, nanoseconds: UInt32(milliseconds % 1000) * 1_000_000)
            return sessions.connected(connection(attempt + 1, port: UInt16(50_000 + attempt), address: address(attempt)), session: session, in: first)
        }
    }

    @Test("a client that connects again more than 10 times a second in one session fails RECONNECT-1 (recommended), once; 10 a second pass, and so do other clients sharing the session_id")
    func reconnectsTooOften() {
        let hammering = Self.reconnects(14, every: 90)
        let failures = hammering.compactMap { outcome -> MonitorVerdict? in
            if case let .failed(verdict) = outcome { verdict } else { nil }
        }
        #expect(failures.count == 1, "said once a session")
        #expect(failures.first.map { $0.end == .client && $0.requirement == .reconnect1 && $0.level == .recommended && $0.connection == 11 } == true)
        #expect(failures.first?.message.contains("connected 11 times within a second") == true, "\(failures.first?.message ?? "")")
        let paced = Self.reconnects(30, every: 100)
        #expect(paced.allSatisfy { if case .failed = $0 { false } else { true } })
        #expect(paced.count { if case .passed(.client, .reconnect1) = $0 { true } else { false } } == 29, "every reconnect after the first is judged")
        let clients = Self.reconnects(14, every: 10) { IPAddress([10, 0, 0, UInt8($0 + 1)]) }
        #expect(clients.allSatisfy { if case .nothing = $0 { true } else { false } }, "each address's first connection of the session")
    }
}
