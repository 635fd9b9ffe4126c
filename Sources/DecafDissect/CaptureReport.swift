import DecafCapture
import DecafJSON
import DecafWire

/// Turns capture events into the lines a user reads: one summary line per frame (or a tree, or
/// JSON), with gaps, resynchronisations and mid-stream starts said plainly.
public struct CaptureReport: Sendable {
    public var style: DissectionReport.Style
    public var hexdump: Bool
    /// The names of the TLV tags, and the layouts their values are read with.
    public var registry: FieldRegistry

    public init(style: DissectionReport.Style = .summary, hexdump: Bool = false, registry: FieldRegistry = .brief) {
        self.style = style
        self.hexdump = hexdump
        self.registry = registry
    }

    /// The lines for `event`.
    public func lines(for event: CaptureEvent) -> [String] {
        if style == .json {
            if case let .frame(frame) = event {
                var json = FrameJSONWriter(registry: registry)
                let line = OutputBuffer()
                frame.withView { json.write($0, to: line) }
                return [String(decoding: line.bytes, as: UTF8.self)]
            }
            return CaptureNoteJSON(event).map { [JSONLine.encode($0)] } ?? []
        }
        switch event {
        case let .frame(frame):
            let report = DissectionReport(style: style, hexdump: hexdump, registry: registry)
            guard style == .tree else { return [SummaryRenderer.line(for: frame, registry: registry)] + report.summaryDetails(for: frame.record) }
            let record = report.lines(for: .frame(frame.record))
            let packets = frame.packets.map(String.init).joined(separator: ", ")
            return ["Capture: \(frame.time), connection \(frame.connection), \(frame.direction.rawValue), packet\(frame.packets.count == 1 ? "" : "s") \(packets)"] + record
        case let .connectionOpened(connection):
            return ["== connection \(connection.index): client \(connection.client), server \(connection.server)"]
        case let .joinedMidStream(connection, direction):
            return ["!! connection \(connection.index) \(direction.arrow): the capture starts mid-stream (no SYN); decoding from the first magic"]
        case let .gap(connection, direction, count, streamOffset, droppedBytes, packet):
            let lost = droppedBytes > 0 ? "; \(droppedBytes) buffered byte(s) of an unfinished frame are lost with them" : ""
            return ["!! connection \(connection.index) \(direction.arrow): \(count) byte(s) missing from the capture at stream offset \(streamOffset) (seen at packet \(packet))\(lost); decoding resumes at the next magic"]
        case let .resynchronized(connection, direction, skipped, resumedAt):
            return ["!! connection \(connection.index) \(direction.arrow): " + TreeRenderer.resynchronizationLine(skipped: skipped, resumedAt: resumedAt)]
        case let .captureError(error):
            return ["!! \(error): frames before this point were shown"]
        case .connectionClosed:
            return []
        }
    }
}
