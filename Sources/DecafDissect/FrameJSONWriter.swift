import DecafCapture
import DecafJSON
import DecafWire

/// Writes the `--json` line of a frame (schema: `FrameRecordJSON`, `Specs/dissect-json.md`)
/// straight from the frame's bytes: no record, no strings per field. It gives exactly the line
/// Foundation's encoder gives for `FrameRecordJSON` (the tests hold every frame of every vector and
/// capture to it), and remembers what repeats from frame to frame (a connection's endpoints, a
/// capture time, a timestamp) so each is formatted once.
public struct FrameJSONWriter {
    /// The `connection` object of recent connections, by index, and of the last one.
    private var connections: [Int: [UInt8]] = [:]
    private var lastConnection: (index: Int, text: [UInt8])?
    private var lastCaptureTime: (time: CaptureTime, text: [UInt8])?
    private var lastTimestamp: (seconds: UInt32, text: [UInt8])?
    /// The names of the TLV tags, and the layouts their values are read with.
    public let registry: FieldRegistry

    public init(registry: FieldRegistry = .brief) {
        self.registry = registry
    }

    /// Appends the line of a frame from a capture, without the newline, to `out`.
    public mutating func write(_ frame: CapturedFrameView, to out: OutputBuffer) {
        write(frame.parts, capture: frame, to: out)
    }

    /// Appends the line of a frame from a stream, without the newline, to `out`.
    public mutating func write(_ parts: FrameParts, to out: OutputBuffer) {
        write(parts, capture: nil, to: out)
    }

    private mutating func write(_ parts: FrameParts, capture: CapturedFrameView?, to out: OutputBuffer) {
        var writer = JSONWriter(into: out)
        writer.object { writer in
            let header = parts.header
            if header != nil {
                writer.key("body")
                writeBody(parts, to: &writer)
            }
            if let capture {
                writer.key("captureTime")
                writer.raw(captureTimeText(capture.time))
            }
            if let header {
                writer.key("checksum")
                writeChecksum(parts, header: header, to: &writer)
            }
            if let capture {
                writer.key("connection")
                writer.raw(connectionText(capture.connection))
                writer.member("direction", name: capture.direction.rawValue)
            }
            if let error = parts.error {
                writer.key("error")
                writer.object { writer in
                    writer.member("code", error.code.rawValue)
                    writer.member("frameOffset", error.frameOffset)
                    writer.member("message", error.message)
                    writer.member("name", error.code.name)
                    writer.member("offset", error.offset)
                    writer.member("requirement", error.requirement.rawValue)
                }
            }
            if let header {
                writer.key("header")
                FrameHeaderJSON.write(header, time: timestampText(header.timestamp), to: &writer)
            }
            writer.key("hex")
            writer.hex(parts.bytes)
            writer.member("index", parts.index)
            writer.member("length", parts.bytes.count)
            if let capture {
                writer.member("packet", capture.completedBy)
                writer.key("packets")
                writer.array(capture.packets) { $0.number($1) }
            }
            writer.member("record", name: "frame")
            writer.member("status", name: parts.isValid ? "ok" : "error")
            writer.member("streamOffset", parts.streamOffset)
            // One walk writes the fields and finds the values that do not fit their tags.
            var misfits = MisfitWarnings(warnings: parts.headerWarnings)
            if parts.payload != nil {
                writer.key("tlv")
                writer.beginArray()
                var fields = TLVFieldsJSON(fields: TLVFieldJSONWriter(writer: writer), misfits: misfits)
                parts.fields.walkTLVFields(&fields, naming: registry)
                writer = fields.fields.writer
                misfits = fields.misfits
                writer.endArray()
            }
            writer.key("warnings")
            writer.array(misfits.warnings) { writer, warning in
                writer.object { writer in
                    writer.member("message", warning.message)
                    writer.member("requirement", warning.requirement.rawValue)
                }
            }
        }
    }

    private func writeBody(_ parts: FrameParts, to writer: inout JSONWriter) {
        let body = UnsafeRawBufferPointer(rebasing: parts.bytes[min(FrameHeader.size, parts.bytes.count)...])
        writer.object { writer in
            writer.member("compressed", parts.isCompressed)
            writer.key("hex")
            writer.hex(body)
            if parts.isCompressed, let payload = parts.payload {
                writer.key("inflated")
                writer.hex(payload)
            }
            writer.member("length", body.count)
            writer.member("opaque", parts.isOpaque)
        }
    }

    private func writeChecksum(_ parts: FrameParts, header: FrameHeader, to writer: inout JSONWriter) {
        let computed = parts.computedChecksum
        let verdict = computed.map { ChecksumVerdict(stored: header.checksum, computed: $0) }
        writer.object { writer in
            writer.member("computed", computed)
            writer.member("littleEndian", verdict?.isByteSwapped ?? false)
            writer.member("status", name: verdict.map { $0 == .correct ? "correct" : "mismatch" } ?? "unchecked")
            writer.member("stored", header.checksum)
        }
    }

    /// `captureTime`'s value, quoted, formatted once per packet time.
    private mutating func captureTimeText(_ time: CaptureTime) -> [UInt8] {
        if let last = lastCaptureTime, last.time == time { return last.text }
        let text = JSONWriter.quoted(time.description)
        lastCaptureTime = (time, text)
        return text
    }

    /// The header's `time` value, quoted, formatted once per timestamp.
    private mutating func timestampText(_ seconds: UInt32) -> [UInt8] {
        if let last = lastTimestamp, last.seconds == seconds { return last.text }
        let text = JSONWriter.quoted(UTCTime.iso8601(seconds))
        lastTimestamp = (seconds, text)
        return text
    }

    /// The `connection` object, written once per connection while it is recent.
    private mutating func connectionText(_ connection: TCPConnection) -> [UInt8] {
        if let last = lastConnection, last.index == connection.index { return last.text }
        if let text = connections[connection.index] {
            lastConnection = (connection.index, text)
            return text
        }
        if connections.count >= 4096 { connections.removeAll(keepingCapacity: true) }
        let out = OutputBuffer(capacity: 128)
        var writer = JSONWriter(into: out)
        writer.object { writer in
            writer.member("client", connection.client.description)
            writer.member("index", connection.index)
            writer.member("server", connection.server.description)
        }
        let text = Array(out.bytes)
        connections[connection.index] = text
        lastConnection = (connection.index, text)
        return text
    }
}
