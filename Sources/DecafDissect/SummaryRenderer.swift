import DecafCapture
import DecafJSON
import DecafWire

/// One line per frame: where it was, type, sequence, session, body size, top-level tags, status.
/// Written straight from the frame into bytes, column by column: a capture has millions of lines.
public enum SummaryRenderer {
    /// Appends the line of a frame from a stream, without the newline.
    public static func write(_ parts: FrameParts, registry: FieldRegistry, to out: OutputBuffer) {
        let line = Columns(startingAt: out)
        line.add(to: out, width: 5) { $0.append("#"); $0.appendDecimal(parts.index) }
        line.add(to: out, width: 8, right: true) { $0.appendDecimal(parts.streamOffset) }
        addColumns(for: parts, registry: registry, to: out, line)
    }

    /// Appends the line of a frame from a capture, without the newline; `times` is the renderer's
    /// own, kept from line to line.
    static func write(_ frame: CapturedFrameView, registry: FieldRegistry, times: inout TimeOfDayCache, to out: OutputBuffer) {
        let line = Columns(startingAt: out)
        line.add(to: out, width: 5) { $0.append("#"); $0.appendDecimal(frame.parts.index) }
        line.add(to: out) { times.write(frame.time, to: $0) }
        line.add(to: out, width: 7) { $0.append("conn "); $0.appendDecimal(frame.connection.index) }
        line.add(to: out) { $0.append(frame.direction.arrow) }
        line.add(to: out, width: 11) { text in
            let first = frame.packets.first ?? 0, last = frame.packets.last ?? 0
            text.append("pkt ")
            text.appendDecimal(first)
            if first != last {
                text.append(UInt8(ascii: "-"))
                text.appendDecimal(last)
            }
        }
        addColumns(for: frame.parts, registry: registry, to: out, line)
    }

    /// The header fields a line shows, in the order of the header's bytes; the others are left to
    /// -V and --json (a line shows what tells frames apart). A header field added to the frame
    /// model does not compile until the line says whether it shows it, and how.
    static let headerColumns = FrameHeader.Field.inOrder.filter { field in
        switch field {
        case .messageType, .sequence, .sessionID, .bodyLength: true
        case .magic, .versionMajor, .versionMinor, .timestamp, .encryptType, .compressType, .checksum: false
        }
    }

    /// The columns that describe the frame itself: type, sequence, session, body, tags, status.
    private static func addColumns(for parts: FrameParts, registry: FieldRegistry, to out: OutputBuffer, _ line: Columns) {
        var warnings: [DissectionWarning] = []
        if let header = parts.header {
            for field in Self.headerColumns {
                switch field {
                case .messageType:
                    line.add(to: out, width: 13) { $0.appendDescription(of: header.messageType) }
                case .sequence:
                    line.add(to: out, width: 22) { text in
                        text.append("seq ")
                        text.appendDescription(of: header.sequence.category)
                        text.append(UInt8(ascii: "/"))
                        text.appendDecimal(header.sequence.counter)
                    }
                case .sessionID:
                    line.add(to: out, width: 14) { text in
                        text.append("session 0x")
                        text.appendUppercaseHex(header.sessionID.rawValue)
                    }
                case .bodyLength:
                    line.add(to: out, width: 18, characters: parts.isCompressed) { text in
                        text.append("body ")
                        text.appendDecimal(header.bodyLength)
                        if parts.isCompressed, let payload = parts.payload {
                            text.append(" zlib→")
                            text.appendDecimal(payload.count)
                        }
                        if parts.isOpaque { text.append(" opaque") }
                    }
                case .magic, .versionMajor, .versionMinor, .timestamp, .encryptType, .compressType, .checksum:
                    break
                }
            }
            line.add(to: out, width: 24) { text in
                var tags = TagList(misfits: MisfitWarnings(warnings: parts.headerWarnings))
                parts.fields.walkTLVFields(&tags, naming: registry)
                tags.write(to: text, naming: registry)
                warnings = tags.misfits.warnings
            }
        } else {
            let what = parts.error?.code == .badMagic ? "not a frame" : "no complete header"
            line.add(to: out, width: 96) { $0.append("(\(parts.bytes.count) bytes, \(what))") }
        }
        line.add(to: out) { appendStatus(of: parts, warnings: warnings, to: $0) }
    }

    /// The first few top-level tags, then how many more there are (`-` for none); and, in the
    /// same walk, the warnings of values that do not fit their tags, for the status column. The
    /// tags are kept and written after the walk, so the walk does not hold the line's buffer.
    private struct TagList: FrameFieldVisitor {
        static let shown = 6
        var misfits: MisfitWarnings
        var tags = SIMD8<UInt16>()
        var count = 0

        mutating func enterTLVField(_ field: TLVFieldItem) {
            misfits.enterTLVField(field)
            guard field.depth == 0 else { return }
            if count < Self.shown { tags[count] = field.tag.rawValue }
            count += 1
        }

        func write(to out: OutputBuffer, naming registry: FieldRegistry) {
            guard count > 0 else {
                out.append(UInt8(ascii: "-"))
                return
            }
            for index in 0..<min(count, Self.shown) {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                let tag = TLVTag(tags[index])
                if let name = registry.nameBytes(of: tag) {
                    out.append(name)
                } else {
                    out.append("0x")
                    out.appendUppercaseHex(tag.rawValue)
                }
            }
            if count > Self.shown {
                out.append(",+")
                out.appendDecimal(count - Self.shown)
            }
        }
    }

    private static func appendStatus(of parts: FrameParts, warnings: [DissectionWarning], to text: OutputBuffer) {
        if let error = parts.error {
            text.append("\(error.code.name) (\(error.requirement.rawValue)) at offset \(error.offset): \(error.message)")
            return
        }
        guard !warnings.isEmpty else {
            text.append("ok")
            return
        }
        text.append("ok, \(warnings.count) warning\(warnings.count == 1 ? "" : "s"): ")
        text.append(warnings.map(\.requirement.rawValue).joined(separator: ", "))
    }

    /// Columns separated by one space, each padded to its width in characters. Most columns are
    /// ASCII (a tag's name is capitals, digits and underscores), so their width is counted in
    /// bytes; the body's, with `zlib→`, counts its characters.
    /// The buffer is given to each `add`, not kept: a reference kept would be counted for each
    /// line, which costs the summary of millions of frames as much as a column.
    private struct Columns {
        private let lineStart: Int

        init(startingAt out: OutputBuffer) {
            lineStart = out.count
        }

        /// Adds the column that `write` appends, padded to `width`: `characters` when it may hold
        /// more than ASCII (a debug build checks that the others do not). Always inlined, so each
        /// column's writing is inlined too rather than called through a closure: about an eighth
        /// of the summary's CPU.
        @inline(__always)
        func add(to out: OutputBuffer, width: Int = 0, right: Bool = false, characters: Bool = false, _ write: (OutputBuffer) -> Void) {
            if out.count > lineStart { out.append(UInt8(ascii: " ")) }
            let start = out.count
            write(out)
            guard width > 0 else { return }
            assert(characters || out.scalarCount(from: start) == out.count - start, "a column counted in bytes holds more than ASCII")
            let gap = width - (characters ? out.scalarCount(from: start) : out.count - start)
            if right {
                out.insert(repeating: UInt8(ascii: " "), count: gap, at: start)
            } else {
                out.append(repeating: UInt8(ascii: " "), count: gap)
            }
        }
    }
}
