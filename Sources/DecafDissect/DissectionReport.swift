import DecafJSON
import DecafWire
import Foundation

/// Turns dissection events into the text a user reads: summary lines, trees, hexdumps or JSON.
public struct DissectionReport: Sendable {
    public enum Style: Sendable {
        case summary
        case tree
        case json
    }

    public var style: Style
    public var hexdump: Bool
    /// The names of the TLV tags, and the layouts their values are read with.
    public var registry: FieldRegistry

    public init(style: Style = .summary, hexdump: Bool = false, registry: FieldRegistry = .brief) {
        self.style = style
        self.hexdump = hexdump
        self.registry = registry
    }

    /// The lines for `event`; given the whole `stream`, JSON resync records carry the skipped bytes.
    public func lines(for event: DissectionEvent, stream: [UInt8]? = nil) -> [String] {
        switch (event, style) {
        case let (.frame(record), .json):
            var json = FrameJSONWriter(registry: registry)
            let line = OutputBuffer()
            record.withParts { json.write($0, to: line) }
            return [String(decoding: line.bytes, as: UTF8.self)]
        case let (.resynchronized(skipped, resumedAt), .json):
            var note = ResynchronizationJSON(skipped: skipped, resumedAt: resumedAt)
            if let stream {
                let end = resumedAt ?? stream.count
                note.from = end - skipped
                note.hex = Hex.string(stream[(end - skipped)..<end])
            }
            return [JSONLine.encode(note)]
        case let (.resynchronized(skipped, resumedAt), _):
            return [TreeRenderer.resynchronizationLine(skipped: skipped, resumedAt: resumedAt)]
        case let (.frame(record), .summary):
            return [SummaryRenderer.line(for: record, registry: registry)] + summaryDetails(for: record)
        case let (.frame(record), .tree):
            return TreeRenderer.lines(for: record, registry: registry) + (hexdump ? HexdumpRenderer.lines(for: record, registry: registry).map { "    " + $0 } + [""] : [""])
        }
    }

    /// The lines under a frame's summary line: where its error lies, or its hexdump.
    func summaryDetails(for record: FrameRecord) -> [String] {
        if hexdump { return HexdumpRenderer.lines(for: record, registry: registry).map { "      " + $0 } }
        guard let error = record.error else { return [] }
        return ErrorExcerpt.lines(for: record, error: error).map { "      " + $0 }
    }
}
