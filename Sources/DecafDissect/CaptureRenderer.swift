import DecafCapture
import DecafJSON
import DecafWire

/// Writes what a capture listing shows as text a user reads, into `bytes`: a summary line per
/// frame (with the excerpt of an error, or a hexdump), a tree, or a JSON line. Frames are written
/// straight from the bytes they arrived in, except in the tree, which is for reading a few.
public struct CaptureRenderer: CaptureSink {
    public let style: DissectionReport.Style
    public let hexdump: Bool
    /// The names of the TLV tags, and the layouts their values are read with.
    public let registry: FieldRegistry
    /// What was written and not yet taken.
    public let output = OutputBuffer()
    private var json: FrameJSONWriter
    private var times = TimeOfDayCache()

    public init(style: DissectionReport.Style, hexdump: Bool = false, registry: FieldRegistry = .brief) {
        self.style = style
        self.hexdump = hexdump
        self.registry = registry
        json = FrameJSONWriter(registry: registry)
    }

    public mutating func frame(_ frame: CapturedFrameView) {
        switch style {
        case .summary:
            SummaryRenderer.write(frame, registry: registry, times: &times, to: output)
            output.append(UInt8(ascii: "\n"))
            if hexdump || !frame.parts.isValid {
                append(DissectionReport(style: style, hexdump: hexdump, registry: registry).summaryDetails(for: FrameRecord(frame.parts)))
            }
        case .json:
            json.write(frame, to: output)
            output.append(UInt8(ascii: "\n"))
        case .tree:
            append(CaptureReport(style: style, hexdump: hexdump, registry: registry).lines(for: .frame(CapturedFrame(frame))))
        }
    }

    public mutating func note(_ event: CaptureEvent) {
        append(CaptureReport(style: style, hexdump: hexdump, registry: registry).lines(for: event))
    }

    private mutating func append(_ lines: [String]) {
        for line in lines {
            output.append(line)
            output.append(UInt8(ascii: "\n"))
        }
    }
}
