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

    public init(style: Style = .summary, hexdump: Bool = false) {
        self.style = style
        self.hexdump = hexdump
    }

    /// The lines for `event`; given the whole `stream`, JSON resync records carry the skipped bytes.
    public func lines(for event: DissectionEvent, stream: [UInt8]? = nil) -> [String] {
        switch (event, style) {
        case let (.frame(record), .json):
            return [JSONLine.encode(FrameRecordJSON(record))]
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
            var lines = [SummaryRenderer.line(for: record)]
            if let error = record.error, !hexdump {
                lines += ErrorExcerpt.lines(for: record, error: error).map { "      " + $0 }
            }
            return lines + (hexdump ? HexdumpRenderer.lines(for: record).map { "      " + $0 } : [])
        case let (.frame(record), .tree):
            return TreeRenderer.lines(for: record) + (hexdump ? HexdumpRenderer.lines(for: record).map { "    " + $0 } + [""] : [""])
        }
    }
}
