import DecafNIO
import DecafPeer
import DecafWire

/// `decaf handshake`: the report as lines a person reads.
struct HandshakeReportText {
    let lines: [String]

    init(_ report: HandshakeReport, server: Endpoint) {
        var lines = ["handshake with \(server): \(report.succeeded ? "succeeded" : "failed")"]
        lines.append("  offered \(report.offered.version), features \(report.offered.features)")
        if let response = report.response {
            lines.append("  agreed  \(response.version), features \(response.features)")
            if response.version.major != report.offered.version.major {
                lines.append("  the server speaks major \(response.version.major), not \(report.offered.version.major)")
            }
        }
        lines.append("  " + (report.acknowledged ? "request acknowledged" : "request not acknowledged")
            + (report.roundTrip.map { "; round trip \(Milliseconds.text($0))" } ?? ""))
        if let error = report.error {
            lines.append("  server sent ERROR \(error.code) \(ErrorCode(rawValue: error.code)?.name ?? "(undefined)"): \(error.reason)")
        }
        if let error = report.protocolError { lines.append("  the server's reply breaks the protocol: \(error)") }
        if report.closedByServer { lines.append("  the server closed the connection") }
        if let unfinished = report.unfinished { lines.append("  the server \(unfinished.description) when the timeout ended the wait") }
        if report.timedOut { lines.append("  no complete answer within the timeout") }
        self.lines = lines
    }
}
