import DecafDissect
import DecafJSON
import DecafPeer

/// `decaf send --json`: the report as one JSON object.
struct SendReportJSON: Encodable {
    struct Latency: Encodable {
        var minimumMs, medianMs, p99Ms, maximumMs: Double
    }

    var ok: Bool
    /// Stopped by Ctrl-C before every message was settled.
    var interrupted: Bool
    var connections, sent, acknowledged, lost, retransmissions, copies, duplicateAcks, readReceipts, reconnects, heartbeatsAcknowledged: Int
    var elapsedMs: Double
    var messagesPerSecond: Double
    var latency: Latency?
    var negotiatedVersion: String?
    var negotiatedFeatures: UInt16?
    var serverErrors: [String]
    /// Each reason messages were lost for, and how many.
    var lostBecause: [String: Int]

    init(_ report: SendReport) {
        ok = report.succeeded
        interrupted = report.interrupted
        connections = report.connections
        sent = report.sent
        acknowledged = report.acknowledged
        lost = report.lost
        lostBecause = report.lostBecause
        retransmissions = report.retransmissions
        copies = report.copies
        duplicateAcks = report.duplicateAcks
        readReceipts = report.readReceipts
        reconnects = report.reconnects
        heartbeatsAcknowledged = report.heartbeatsAcknowledged
        elapsedMs = Milliseconds.value(report.elapsed)
        messagesPerSecond = report.messagesPerSecond
        latency = report.latency.map {
            Latency(minimumMs: Milliseconds.value($0.minimum), medianMs: Milliseconds.value($0.median),
                    p99Ms: Milliseconds.value($0.p99), maximumMs: Milliseconds.value($0.maximum))
        }
        negotiatedVersion = report.negotiated.first?.version.description
        negotiatedFeatures = report.negotiated.first?.features.rawValue
        serverErrors = report.serverErrors.map { "\($0.code): \($0.reason)" }
    }

    var line: String { JSONLine.encode(self) }
}
