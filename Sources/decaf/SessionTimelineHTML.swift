import DecafCapture
import DecafConformance
import DecafDissect
import DecafMonitor
import DecafWire
import Foundation

/// The picture of a capture's sessions in `decaf monitor --html`: a row per session, a bar per
/// connection from its first frame to its last (green when an end closed it, orange when one
/// reset it, grey when the capture ended first), a red dot per failure, and the time each
/// reconnect took to deliver again. An SVG inside the page, with a title on everything; the field
/// metrics follow it.
enum SessionTimelineHTML {
    static let left = 130.0
    static let width = 900.0
    static let lane = 16.0

    /// The picture, then the field metrics as the text report gives them.
    static func render(_ report: MonitorReport) -> String {
        let metrics = "<h2 id=\"metrics\">Field metrics</h2>\n<pre>\(MarkupEscaping.escape(report.metrics.lines.joined(separator: "\n")))</pre>\n"
        return picture(report.timeline) + metrics
    }

    static func picture(_ timeline: SessionTimeline) -> String {
        guard let start = timeline.start, let end = timeline.end, !timeline.sessions.isEmpty else { return "" }
        let escape = MarkupEscaping.escape
        let span = max(1, Double(end.nanoseconds(since: start)))
        func x(_ time: CaptureTime) -> Double { left + Double(time.nanoseconds(since: start)) / span * width }
        let seconds = RoundTripSummary.seconds
        var body = ""
        var y = 30.0
        let ordered = timeline.sessions.sorted { ($0.connections.map(\.first).min() ?? start) < ($1.connections.map(\.first).min() ?? start) }
        for session in ordered {
            // Connections that overlap in time take lanes of their own.
            var laneEnds: [CaptureTime] = []
            var placed: [(SessionTimeline.Connection, Int)] = []
            for connection in session.connections.sorted(by: { $0.first < $1.first }) {
                let free = laneEnds.firstIndex { $0 < connection.first } ?? laneEnds.count
                if free == laneEnds.count { laneEnds.append(connection.last) } else { laneEnds[free] = connection.last }
                placed.append((connection, free))
            }
            body += "<text x=\"4\" y=\"\(y + 11)\" class=\"label\">session \(Hex.format(session.session, width: 4))</text>\n"
            var previous: SessionTimeline.Connection?
            for (connection, laneIndex) in placed {
                let top = y + Double(laneIndex) * lane
                let from = x(connection.first), to = max(x(connection.last), from + 2)
                let (kind, how) = switch connection.endedBy {
                case let (end, .fin)?: ("closed", "closed by the \(end)")
                case let (end, .reset)?: ("reset", "reset by the \(end)")
                case nil: ("open", "still open when the capture ended")
                }
                let title = "connection #\(connection.index): \(connection.first.timeOfDay) to \(connection.last.timeOfDay), \(how)"
                body += "<rect class=\"\(kind)\" x=\"\(format(from))\" y=\"\(format(top))\" width=\"\(format(to - from))\" height=\"10\"><title>\(escape(title))</title></rect>\n"
                if let reconnect = connection.reconnect, let previous {
                    let gapFrom = x(previous.last)
                    body += "<line class=\"reconnect\" x1=\"\(format(gapFrom))\" y1=\"\(format(top + 5))\" x2=\"\(format(from))\" y2=\"\(format(top + 5))\"><title>reconnect: \(seconds(reconnect)) from the lost connection's last frame to the next message delivered</title></line>\n"
                    body += "<text x=\"\(format((gapFrom + from) / 2))\" y=\"\(format(top - 1))\" class=\"note\">\(seconds(reconnect))</text>\n"
                }
                for failure in connection.failures {
                    body += "<circle class=\"failure\" cx=\"\(format(x(failure.time)))\" cy=\"\(format(top + 5))\" r=\"4\"><title>\(escape(failure.text))</title></circle>\n"
                }
                previous = connection
            }
            y += Double(max(1, laneEnds.count)) * lane + 12
        }
        var axis = ""
        for tick in 0...5 {
            let at = left + width * Double(tick) / 5
            axis += "<line class=\"tick\" x1=\"\(format(at))\" y1=\"16\" x2=\"\(format(at))\" y2=\"\(format(y))\"/>"
            axis += "<text x=\"\(format(at))\" y=\"12\" class=\"note\">\(seconds(Int64(span * Double(tick) / 5)))</text>\n"
        }
        let shown = timeline.sessions.count
        let more = timeline.connectionsNotShown > 0 ? "; \(timeline.connectionsNotShown) connection(s) not shown" : ""
        return """
        <h2 id="timeline">Sessions in time</h2>
        <p>\(shown) session(s) from \(start.timeOfDay)\(more). A bar is a connection, from its first frame to its last: \
        <span class="closed">closed</span>, <span class="reset">reset</span> or <span class="open">open when the capture ended</span>; \
        a red dot a failure; a dashed line a reconnect, with the time to the next message delivered. Hover for details.</p>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(format(left + width + 20))" height="\(format(y + 10))" role="img" aria-label="sessions in time">
        <style>.label{font:12px sans-serif;fill:#222}.note{font:10px sans-serif;fill:#555;text-anchor:middle}.tick{stroke:#eee}\
        rect.closed{fill:#3a8f55}rect.reset{fill:#e07b00}rect.open{fill:#999}.failure{fill:#b00020}.reconnect{stroke:#555;stroke-dasharray:3 3}</style>
        \(axis)\(body)</svg>
        <style>span.closed{color:#3a8f55}span.reset{color:#e07b00}span.open{color:#777}</style>

        """
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
