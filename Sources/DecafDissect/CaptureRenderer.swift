import DecafCapture
import DecafJSON
import DecafWire

/// Writes what a listing shows as text a user reads, into `bytes`: a summary line per frame (with
/// the excerpt of an error, or a hexdump), a tree, or a JSON line, each frame placed as `layout`
/// says. Frames are written straight from the bytes they arrived in, except in the tree, which is
/// for reading a few.
public struct CaptureRenderer: CaptureSink {
    /// What is written of the frames, and how they are placed, in lines: the tree, the notes.
    public let report: CaptureReport
    /// What was written and not yet taken.
    public let output = OutputBuffer()
    private var json: FrameJSONWriter
    private var times = TimeOfDayCache()

    public init(style: ListingStyle, hexdump: Bool = false, registry: FieldRegistry = .brief, layout: ListingLayout = .capture) {
        report = CaptureReport(style: style, hexdump: hexdump, registry: registry, layout: layout)
        json = FrameJSONWriter(registry: registry)
    }

    public mutating func frame(_ frame: CapturedFrameView) {
        guard report.style != .tree else { return append(report.lines(for: frame)) }
        report.writeLine(of: frame, times: &times, json: &json, to: output)
        output.append(UInt8(ascii: "\n"))
        if report.style == .summary, report.hexdump || !frame.parts.isValid { append(report.summaryDetails(for: frame.parts)) }
    }

    public mutating func note(_ event: CaptureEvent) {
        append(report.lines(for: event))
    }

    private mutating func append(_ lines: [String]) {
        for line in lines {
            output.append(line)
            output.append(UInt8(ascii: "\n"))
        }
    }
}
