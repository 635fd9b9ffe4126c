import DecafCapture
import DecafJSON
import DecafWire
import Foundation

/// The text and JSON forms of `CaptureStatistics`.
public enum CaptureStatisticsRenderer {
    /// The `--stats` text, with the capture-wide counts of the dissector that fed `stats`.
    public static func lines(for stats: CaptureStatistics, of capture: CaptureDissector) -> [String] {
        let frames = stats.byType.values.reduce(0) { $0 + $1.frames }
        let skipped = capture.tracker.skippedPackets.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        let counted = stats.filter.isEmpty ? "\(frames) frame(s)" : "\(frames) frame(s) matching the filter"
        var lines = ["\(counted) in \(stats.connectionCount) connection(s); \(capture.ignoredConnections) other TCP connection(s) ignored; "
            + "\(stats.gaps) gap(s) (\(stats.missingBytes) bytes missing), \(stats.resynchronizations) resynchronisation(s), "
            + "\(stats.midStreamJoins) stream(s) joined mid-way",
            "\(capture.reader.packetCount) packet(s) read, \(capture.tracker.truncatedPackets) cut short by the snapshot length; "
            + "\(capture.tracker.retransmittedBytes) TCP byte(s) retransmitted; packets without a usable TCP segment: "
            + (skipped.isEmpty ? "none" : skipped.joined(separator: ", "))]
        if capture.tracker.connectionsClosedEarly > 0 {
            lines.append("\(capture.tracker.connectionsClosedEarly) connection(s) closed early: more than \(capture.tracker.connectionLimit) were open at once "
                + "(the least recently active first; their later packets start new connections)")
        }
        if capture.tracker.budgetReleases > 0 {
            lines.append("\(capture.tracker.budgetReleases) time(s) a stream stopped waiting for missing bytes early: connections together held "
                + "more than \(capture.tracker.heldBytesBudget >> 20) MiB out of order")
        }
        lines.append("By message type:")
        for (type, count) in stats.byType.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(type.padding(toLength: 14, withPad: " ", startingAt: 0)) \(count.frames) frame(s), \(count.bytes) bytes")
        }
        lines.append("By connection:")
        for (index, count) in stats.byConnection.sorted(by: { $0.key < $1.key }) {
            let name = stats.connections[index].map(\.description) ?? "#\(index)"
            lines.append("  \(name): \(count.frames) frame(s), \(count.bytes) bytes")
        }
        if stats.connectionsNotListed > 0 {
            lines.append("  \(stats.connectionsNotListed) more connection(s), not listed (over \(stats.listLimit)): "
                + "\(stats.otherConnections.frames) frame(s), \(stats.otherConnections.bytes) bytes")
        }
        if let summary = stats.roundTripSummary {
            lines.append("ACK round trip over \(stats.roundTripCount) acknowledged frame(s): " + summary.text)
        } else {
            lines.append("ACK round trip: no frame was acknowledged")
        }
        let unacknowledgedCount = stats.unacknowledgedCount
        lines.append("Never acknowledged: \(unacknowledgedCount)")
        for frame in stats.unacknowledged(first: 20) {
            lines.append("  conn \(frame.connection) \(frame.direction.arrow) \(frame.messageType) seq \(Hex.word(frame.sequence)) (packet \(frame.packet))")
        }
        if unacknowledgedCount > 20 { lines.append("  ... and \(unacknowledgedCount - 20) more") }
        if stats.unacknowledgedLeftOut > 0 {
            lines.append("  \(stats.unacknowledgedLeftOut) more frame(s) given up waiting for an ACK (over \(stats.awaitingLimit) waiting at once): "
                + "not listed, and not timed if their ACK came")
        }
        lines.append("Handshakes: \(stats.handshakes.count)")
        for handshake in stats.handshakes.values.sorted(by: { $0.connection < $1.connection }) {
            let offered = handshake.requestedVersion.map { "\($0) [\((handshake.requestedFeatures ?? []).joined(separator: ", "))]" } ?? "nothing seen"
            let answered = handshake.negotiatedVersion.map { "\($0) [\((handshake.negotiatedFeatures ?? []).joined(separator: ", "))]" } ?? "no response seen"
            lines.append("  conn \(handshake.connection): client offered \(offered); negotiated \(answered)")
        }
        let errorCount = stats.errors.count + stats.errorsLeftOut
        lines.append("Errors: \(errorCount)")
        for error in stats.errors.prefix(20) {
            lines.append("  conn \(error.connection) \(error.direction.arrow) \(error.name) (\(error.requirement)) at stream offset \(error.streamOffset), packet \(error.packet)")
        }
        if errorCount > 20 { lines.append("  ... and \(errorCount - 20) more") }
        if let captureError = stats.captureError { lines.append("Capture file damaged: \(captureError)") }
        return lines
    }

    /// `--stats --json`: the same as one JSON object.
    public static func json(for stats: CaptureStatistics, of capture: CaptureDissector) -> String {
        JSONLine.encode(CaptureStatisticsJSON(stats, capture: capture))
    }
}

/// `--stats --json`, one object; round-trip times in nanoseconds.
struct CaptureStatisticsJSON: Encodable {
    var record = "stats"
    var frames: Int
    var byType: [String: CaptureStatistics.Count]
    var byConnection: [String: CaptureStatistics.Count]
    /// Connections past the first `CaptureStatistics.listLimit` (10,000), and their frames and
    /// bytes together; absent when none was left out.
    var connectionsNotListed: Int?
    var otherConnections: CaptureStatistics.Count?
    var connections: [ConnectionJSON]
    var ignoredConnections: Int
    var packets: Int
    var truncatedPackets: Int
    var retransmittedBytes: Int
    var skippedPackets: [String: Int]
    /// Times a stream stopped waiting for missing bytes because all connections together held too
    /// many out of order (`TCPConnectionTracker.heldBytesBudget`); absent when none did.
    var budgetReleases: Int?
    /// Connections closed early because `TCPConnectionTracker.connectionLimit` were open at once;
    /// absent when none was.
    var connectionsClosedEarly: Int?
    var roundTrip: RoundTripSummary?
    /// The first round trips (`CaptureStatistics.roundTripLimit`, 10,000); the summary covers them all.
    var roundTrips: [CaptureStatistics.RoundTrip]
    /// Round trips after those, counted in the summary but not listed.
    var roundTripsLeftOut: Int
    /// The first frames never acknowledged (`CaptureStatistics.listLimit`, 10,000).
    var unacknowledged: [CaptureStatistics.Unacknowledged]
    /// Frames never acknowledged after those; absent when none was left out of the list.
    var unacknowledgedNotListed: Int?
    /// Frames given up waiting for their ACK (over `CaptureStatistics.awaitingLimit` waiting at
    /// once); absent when none was.
    var unacknowledgedLeftOut: Int?
    var handshakes: [CaptureStatistics.Handshake]
    /// The first errors (`CaptureStatistics.listLimit`, 10,000).
    var errors: [CaptureStatistics.ErrorSeen]
    /// Errors after those; absent when none was left out.
    var errorsLeftOut: Int?
    var gaps: Int
    var missingBytes: Int
    var resynchronizations: Int
    var captureError: String?

    init(_ stats: CaptureStatistics, capture: CaptureDissector) {
        frames = stats.byType.values.reduce(0) { $0 + $1.frames }
        byType = stats.byType
        byConnection = Dictionary(uniqueKeysWithValues: stats.byConnection.map { ("\($0.key)", $0.value) })
        connectionsNotListed = stats.connectionsNotListed > 0 ? stats.connectionsNotListed : nil
        otherConnections = stats.connectionsNotListed > 0 ? stats.otherConnections : nil
        connections = stats.connections.values.sorted { $0.index < $1.index }.map(ConnectionJSON.init)
        ignoredConnections = capture.ignoredConnections
        packets = capture.reader.packetCount
        truncatedPackets = capture.tracker.truncatedPackets
        retransmittedBytes = capture.tracker.retransmittedBytes
        skippedPackets = capture.tracker.skippedPackets
        budgetReleases = capture.tracker.budgetReleases > 0 ? capture.tracker.budgetReleases : nil
        connectionsClosedEarly = capture.tracker.connectionsClosedEarly > 0 ? capture.tracker.connectionsClosedEarly : nil
        roundTrip = stats.roundTripSummary
        roundTrips = stats.roundTrips
        roundTripsLeftOut = stats.roundTripsLeftOut
        unacknowledged = stats.unacknowledged(first: stats.listLimit)
        let notListed = stats.unacknowledgedCount - unacknowledged.count
        unacknowledgedNotListed = notListed > 0 ? notListed : nil
        unacknowledgedLeftOut = stats.unacknowledgedLeftOut > 0 ? stats.unacknowledgedLeftOut : nil
        handshakes = stats.handshakes.values.sorted { $0.connection < $1.connection }
        errors = stats.errors
        errorsLeftOut = stats.errorsLeftOut > 0 ? stats.errorsLeftOut : nil
        gaps = stats.gaps
        missingBytes = stats.missingBytes
        resynchronizations = stats.resynchronizations
        captureError = stats.captureError?.description
    }
}
