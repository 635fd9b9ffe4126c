import DecafCapture
import DecafDissect
import DecafTestSupport
import DecafVectors
import DecafWire
import Foundation
import Testing

/// `--stats --json` in bounded memory: round trips past the limit are counted, not kept, and said.
@Suite("capture statistics limits")
struct CaptureStatisticsLimitTests {
    @Test("round trips past the limit are counted in the summary and as left out, not kept")
    func roundTripLimit() throws {
        let bytes = try #require(FileManager.default.contents(atPath: FixturePaths.fixtures.appending(path: "captures/session-any.pcapng").path))
        let events = CaptureDissection(Array(bytes)).events
        var all = CaptureStatistics(keepsEachRoundTrip: true)
        var limited = CaptureStatistics(keepsEachRoundTrip: true, roundTripLimit: 2)
        for event in events {
            all.add(event)
            limited.add(event)
        }
        try #require(all.roundTripCount > 2)
        #expect(limited.roundTrips == Array(all.roundTrips.prefix(2)))
        #expect(limited.roundTripsLeftOut == all.roundTripCount - 2 && all.roundTripsLeftOut == 0)
        #expect(limited.roundTripCount == all.roundTripCount && limited.roundTripSummary == all.roundTripSummary)
    }
}

extension CaptureStatisticsLimitTests {
    /// The bytes of a frame of `type` with sequence counter `counter`.
    static func frame(_ type: MessageType, _ counter: Int) -> [UInt8] {
        FrameRecipe.frame(type).with { $0.sequence = SequenceNumber(category: .normal, counter: UInt32(counter)) }.bytes
    }

    /// The events of a capture of one connection in which the client sends `count` DATA frames and
    /// the server then acknowledges the ones in `acknowledged`.
    static func unanswered(_ count: Int, acknowledged: Set<Int> = []) -> [CaptureEvent] {
        var conversation = SyntheticConversation(start: CaptureTime(seconds: 1_700_000_000, nanoseconds: 0))
        conversation.handshake()
        for counter in 1...count { conversation.send(frame(.data, counter), .clientToServer) }
        for counter in acknowledged.sorted() { conversation.send(frame(.ack, counter), .serverToClient) }
        conversation.close()
        return CaptureDissection(CaptureWriter.pcap(conversation.records, linkType: .ethernet)).events
    }

    @Test("past the limit of frames waiting for an ACK, the one waiting longest is given up, counted and not timed")
    func awaitingLimit() {
        var limited = CaptureStatistics(awaitingLimit: 3)
        for event in Self.unanswered(5, acknowledged: [1, 5]) { limited.add(event) }
        // 1 and 2 were given up when 4 and 5 started waiting; 5's ACK is timed, 1's finds nothing.
        #expect(limited.unacknowledgedLeftOut == 2)
        #expect(limited.unacknowledged.map(\.sequence) == [3, 4])
        #expect(limited.roundTripCount == 1)
        var unlimited = CaptureStatistics()
        for event in Self.unanswered(5, acknowledged: [1, 5]) { unlimited.add(event) }
        #expect(unlimited.unacknowledgedLeftOut == 0 && unlimited.unacknowledged.map(\.sequence) == [2, 3, 4] && unlimited.roundTripCount == 2)
    }

    @Test("frames acknowledged as they go never count toward the limit, however many there are")
    func acknowledgedFramesDoNotCount() {
        var interleaved = CaptureStatistics(awaitingLimit: 2)
        var conversation = SyntheticConversation(start: CaptureTime(seconds: 1_700_000_000, nanoseconds: 0))
        conversation.handshake()
        for counter in 1...3_000 {
            conversation.send(Self.frame(.data, counter), .clientToServer)
            conversation.send(Self.frame(.ack, counter), .serverToClient)
        }
        conversation.close()
        for event in CaptureDissection(CaptureWriter.pcap(conversation.records, linkType: .ethernet)).events { interleaved.add(event) }
        #expect(interleaved.unacknowledgedLeftOut == 0 && interleaved.roundTripCount == 3_000 && interleaved.unacknowledged.isEmpty)
    }

    @Test("errors past the list limit are counted as left out, not kept")
    func errorLimit() throws {
        let bytes = try #require(FileManager.default.contents(atPath: FixturePaths.fixtures.appending(path: "captures/damaged.pcap").path))
        var limited = CaptureStatistics(listLimit: 0)
        for event in CaptureDissection(Array(bytes)).events { limited.add(event) }
        #expect(limited.errors.isEmpty && limited.errorsLeftOut > 0)
    }
}

extension CaptureStatisticsLimitTests {
    /// The events of a capture of `count` connections, one after another, each with one DATA
    /// frame and its ACK.
    static func connections(_ count: Int) -> [CaptureEvent] {
        var records: [CaptureRecord] = []
        for index in 0..<count {
            let client = TCPEndpoint(address: SyntheticConversation.defaultClient.address, port: UInt16(30_000 + index))
            var conversation = SyntheticConversation(client: client, start: CaptureTime(seconds: 1_700_000_000 + Int64(index), nanoseconds: 0))
            conversation.handshake()
            conversation.send(frame(.data, 1), .clientToServer)
            conversation.send(frame(.ack, 1), .serverToClient)
            conversation.close()
            records += conversation.records
        }
        return CaptureDissection(CaptureWriter.pcap(records, linkType: .ethernet)).events
    }

    @Test("connections past the list limit are counted together, not listed, and said")
    func connectionLimit() {
        var limited = CaptureStatistics(listLimit: 2)
        var unlimited = CaptureStatistics()
        for event in Self.connections(5) {
            limited.add(event)
            unlimited.add(event)
        }
        #expect(unlimited.connectionCount == 5 && unlimited.connectionsNotListed == 0 && unlimited.byConnection.count == 5)
        #expect(limited.connectionCount == 5 && limited.connections.keys.sorted() == [1, 2] && limited.byConnection.keys.sorted() == [1, 2])
        #expect(limited.connectionsNotListed == 3)
        let otherFrames = unlimited.byConnection.filter { $0.key > 2 }.values.reduce(0) { $0 + $1.frames }
        #expect(limited.otherConnections.frames == otherFrames && otherFrames == 6)
        #expect(limited.roundTripCount == unlimited.roundTripCount, "round trips are timed on every connection")
    }
}
