import DecafPeer
import Foundation

/// `decaf send`: the report as lines a person reads.
struct SendReportText {
    let lines: [String]

    init(_ report: SendReport) {
        let seconds = Milliseconds.value(report.elapsed) / 1000
        let connections = "\(report.connections) connection\(report.connections == 1 ? "" : "s")"
        var lines = [
            report.interrupted
                ? "INTERRUPTED after \(String(format: "%.2f", seconds)) s: \(report.sent) messages sent on \(connections), \(report.acknowledged) acknowledged; \(report.lost) given up"
                : "\(report.sent) messages on \(connections) in \(String(format: "%.2f", seconds)) s: \(report.acknowledged) acknowledged, \(report.lost) lost",
            "  \(String(format: "%.0f", report.messagesPerSecond)) acknowledged messages per second",
        ]
        // Every lost message's reason, the costliest first.
        for (reason, count) in report.lostBecause.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            lines.append("  lost \(count): \(reason)")
        }
        if let latency = report.latency {
            lines.append("  ACK latency: min \(Milliseconds.text(latency.minimum)), median \(Milliseconds.text(latency.median)), "
                + "p99 \(Milliseconds.text(latency.p99)), max \(Milliseconds.text(latency.maximum))")
        }
        lines.append("  read receipts \(report.readReceipts), retransmissions \(report.retransmissions), "
            + "duplicate ACKs \(report.duplicateAcks), reconnects \(report.reconnects)")
        if report.copies > 0 { lines.append("  copies sent at once under measured loss \(report.copies)") }
        if report.heartbeatsAcknowledged > 0 { lines.append("  heartbeats acknowledged \(report.heartbeatsAcknowledged)") }
        if let negotiated = report.negotiated.first {
            lines.append("  negotiated \(negotiated.version), features \(negotiated.features)")
        }
        for error in report.serverErrors.prefix(5) {
            lines.append("  server sent ERROR \(error.code): \(error.reason)")
        }
        self.lines = lines
    }
}
