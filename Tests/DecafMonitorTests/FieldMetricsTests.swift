import DecafCapture
@testable import DecafMonitor
import DecafWire
import Testing

/// The field metrics of a session that loses its connection and delivers again on the next.
@Suite("field metrics")
struct FieldMetricsTests {
    typealias Conversation = ConnectionMonitorTests.Conversation

    /// Feeds `talk`'s frames to one connection's metrics, then ends it.
    static func measure(_ talk: Conversation, into metrics: inout FieldMetrics, index: Int) {
        var connection = ConnectionMetrics()
        for case let .frame(direction, frame) in talk.events { connection.take(frame, from: direction, timing: &metrics) }
        metrics.add(connection, index: index)
    }

    @Test("a message resent after a reconnect is one message, delivered once; the reconnect is timed from the lost connection's last frame")
    func reconnect() throws {
        var metrics = FieldMetrics()
        var first = Conversation()
        first.handshake()
        first.send(.clientToServer, .data, Conversation.normal(1))
        first.ack(.serverToClient, Conversation.normal(1))
        let lost = first.send(.clientToServer, .data, Conversation.normal(2))
        Self.measure(first, into: &metrics, index: 1)

        var second = Conversation()
        second.number = first.number
        second.handshake()
        second.send(.clientToServer, .data, Conversation.normal(2))
        second.ack(.serverToClient, Conversation.normal(2))
        Self.measure(second, into: &metrics, index: 2)

        let report = FieldMetricsReport(metrics)
        #expect((report.messages, report.delivered, report.sentAgain, report.neverAcknowledged) == (2, 2, 1, 0))
        #expect(report.handshakes == 2)
        #expect(report.reconnects == 1)
        // Frames are a microsecond apart: the second connection's DATA ACK is 6 frames after the lost one.
        #expect(report.reconnectTime?.minimum == Int64(6_000), "\(String(describing: report.reconnectTime)) after \(lost.evidence)")
        #expect(report.ackRoundTrip["server"]?.minimum == 1_000)
        #expect(report.perConnection.map(\.dataSent) == [2, 1])
        #expect(report.perConnection.map(\.dataAcknowledged) == [1, 1])
        #expect(report.perSession.map(\.connections) == [2])
        #expect(report.perSession.first?.reconnectTimes == [6_000])
    }
}
