import DecafDissect
import Foundation

/// The field metrics as a report shows them: distributions as four numbers (nanoseconds in JSON,
/// milliseconds in text), counts, and the rates they give.
public struct FieldMetricsReport: Sendable, Encodable {
    public var connections: Int
    public var sessions: Int
    public var handshakes: Int
    public var handshakeTime: RoundTripSummary?
    /// ACK round trips by the end that acknowledged: `client`, `server`.
    public var ackRoundTrip: [String: RoundTripSummary]
    public var messages: Int
    public var delivered: Int
    public var sentAgain: Int
    public var resendRate: Double
    public var neverAcknowledged: Int
    public var readReceipts: Int
    /// Messages a second READ_RECEIPT reported: delivered twice.
    public var deliveredTwice: Int
    public var reconnects: Int
    public var reconnectTime: RoundTripSummary?
    /// Time between heartbeats by the end that sent them.
    public var heartbeatInterval: [String: RoundTripSummary]
    public var bytesPerDeliveredMessage: Int?
    /// Each connection's numbers (the first 10,000 to end), and each session's, by session_id.
    public var perConnection: [FieldMetrics.ConnectionSummary]
    public var perSession: [FieldMetrics.SessionSummary]

    /// The summaries of the ends that measured something, by end.
    private static func byEnd(_ distributions: PerEnd<RoundTripDistribution>) -> [String: RoundTripSummary] {
        Dictionary(uniqueKeysWithValues: MonitorEnd.allCases.compactMap { end in distributions[end].summary.map { (end.rawValue, $0) } })
    }

    public init(_ metrics: FieldMetrics) {
        connections = metrics.connections
        sessions = metrics.sessionConnections.count
        handshakeTime = metrics.handshakes.summary
        handshakes = metrics.handshakes.count
        ackRoundTrip = Self.byEnd(metrics.roundTrips)
        messages = metrics.messages
        delivered = metrics.acknowledged
        sentAgain = metrics.resent
        resendRate = (metrics.resendRate * 10_000).rounded() / 10_000
        neverAcknowledged = metrics.neverAcknowledged
        readReceipts = metrics.readReceipts
        deliveredTwice = metrics.deliveredTwice
        reconnects = metrics.reconnectCount
        reconnectTime = metrics.reconnects.summary
        heartbeatInterval = Self.byEnd(metrics.heartbeatIntervals)
        bytesPerDeliveredMessage = metrics.bytesPerDelivered
        perConnection = metrics.perConnection
        perSession = metrics.perSession.values.sorted { $0.session < $1.session }
    }

    /// The metrics for a person, a few lines.
    public var lines: [String] {
        var lines = ["Field metrics: \(connections) connection(s), \(sessions) session(s)"]
        lines.append("  handshakes \(handshakes)" + (handshakeTime.map { ": " + $0.text } ?? ""))
        let rate = String(format: "%.1f%%", resendRate * 100)
        lines.append("  messages \(messages): delivered \(delivered), never acknowledged \(neverAcknowledged), sent again \(sentAgain) (\(rate) of sendings)")
        lines.append("  read receipts \(readReceipts): messages delivered twice (a second receipt) \(deliveredTwice)")
        for end in MonitorEnd.allCases.reversed() {
            if let summary = ackRoundTrip[end.rawValue] { lines.append("  ACK round trip, the \(end)'s ACKs: " + summary.text) }
        }
        lines.append("  reconnects \(reconnects)" + (reconnectTime.map { ", loss to next delivery: " + $0.text } ?? ""))
        for end in MonitorEnd.allCases {
            if let summary = heartbeatInterval[end.rawValue] { lines.append("  heartbeat interval, the \(end)'s: " + summary.text) }
        }
        if let bytesPerDeliveredMessage { lines.append("  bytes per message delivered: \(bytesPerDeliveredMessage)") }
        return lines
    }
}
