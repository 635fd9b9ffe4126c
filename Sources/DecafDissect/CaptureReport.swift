import DecafCapture
import DecafJSON
import DecafWire

/// Turns capture events into the lines a user reads: one summary line per frame (or a tree, or
/// JSON), with gaps, resynchronisations and mid-stream starts said plainly. A stream's frames
/// (`ListingLayout.stream`) are placed by stream offset, without capture time, connection or packets.
public struct CaptureReport: Sendable {
    public var style: ListingStyle
    public var hexdump: Bool
    /// The names of the TLV tags, and the layouts their values are read with.
    public var registry: FieldRegistry
    public var layout: ListingLayout

    public init(style: ListingStyle = .summary, hexdump: Bool = false, registry: FieldRegistry = .brief, layout: ListingLayout = .capture) {
        self.style = style
        self.hexdump = hexdump
        self.registry = registry
        self.layout = layout
    }

    /// The lines for `event`.
    public func lines(for event: CaptureEvent) -> [String] {
        switch event {
        case let .frame(frame):
            return frame.withView(lines(for:))
        case let .resynchronized(connection, direction, skipped, resumedAt, bytes):
            if style == .json {
                guard layout == .stream else { return CaptureNoteJSON(event).map { [JSONLine.encode($0)] } ?? [] }
                var note = ResynchronizationJSON(skipped: skipped, resumedAt: resumedAt)
                if let bytes {
                    note.from = bytes.from
                    note.hex = Hex.string(bytes.bytes)
                }
                return [JSONLine.encode(note)]
            }
            let line = TreeRenderer.resynchronizationLine(skipped: skipped, resumedAt: resumedAt)
            return [layout == .stream ? line : "!! connection \(connection.index) \(direction.arrow): " + line]
        case _ where style == .json:
            return CaptureNoteJSON(event).map { [JSONLine.encode($0)] } ?? []
        case let .connectionOpened(connection):
            return ["== connection \(connection.index): client \(connection.client), server \(connection.server)"]
        case let .joinedMidStream(connection, direction):
            return ["!! connection \(connection.index) \(direction.arrow): the capture starts mid-stream (no SYN); decoding from the first magic"]
        case let .gap(connection, direction, count, streamOffset, droppedBytes, packet):
            let lost = droppedBytes > 0 ? "; \(droppedBytes) buffered byte(s) of an unfinished frame are lost with them" : ""
            return ["!! connection \(connection.index) \(direction.arrow): \(count) byte(s) missing from the capture at stream offset \(streamOffset) (seen at packet \(packet))\(lost); decoding resumes at the next magic"]
        case let .captureError(error):
            return ["!! \(error): frames before this point were shown"]
        case .ended, .connectionClosed:
            return []
        }
    }

    /// The lines for a frame, seen in place.
    public func lines(for frame: CapturedFrameView) -> [String] {
        guard style == .tree else {
            let out = OutputBuffer(capacity: 256)
            var times = TimeOfDayCache()
            var json = FrameJSONWriter(registry: registry)
            writeLine(of: frame, times: &times, json: &json, to: out)
            return [String(decoding: out.bytes, as: UTF8.self)] + (style == .summary ? summaryDetails(for: frame.parts) : [])
        }
        let tree = TreeRenderer.lines(for: frame.parts, registry: registry)
            + (hexdump ? HexdumpRenderer.lines(for: frame.parts, registry: registry).map { "    " + $0 } + [""] : [""])
        guard layout == .capture else { return tree }
        let packets = frame.packets.map(String.init).joined(separator: ", ")
        return ["Capture: \(frame.time), connection \(frame.connection), \(frame.direction.rawValue), packet\(frame.packets.count == 1 ? "" : "s") \(packets)"] + tree
    }

    /// Writes a frame's summary line or JSON line (not for the tree), placed as `layout` says,
    /// without the newline: the one place both this report and `CaptureRenderer` write them.
    /// `times` and `json` are the caller's, kept from frame to frame.
    @inline(__always)
    func writeLine(of frame: CapturedFrameView, times: inout TimeOfDayCache, json: inout FrameJSONWriter, to out: OutputBuffer) {
        assert(style != .tree, "the tree is written in lines")
        switch (style, layout) {
        case (.json, .capture): json.write(frame, to: out)
        case (.json, .stream): json.write(frame.parts, to: out)
        case (_, .capture): SummaryRenderer.write(frame, registry: registry, times: &times, to: out)
        case (_, .stream): SummaryRenderer.write(frame.parts, registry: registry, to: out)
        }
    }

    /// The lines under a frame's summary line: where its error lies, or its hexdump.
    func summaryDetails(for parts: FrameParts) -> [String] {
        if hexdump { return HexdumpRenderer.lines(for: parts, registry: registry).map { "      " + $0 } }
        guard let error = parts.error else { return [] }
        return ErrorExcerpt.lines(for: parts, error: error).map { "      " + $0 }
    }
}
