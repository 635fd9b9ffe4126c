import DecafCapture
import DecafWire

/// One line per frame: where it was, type, sequence, session, body size, top-level tags, status.
/// Written straight from the frame into bytes, column by column: a capture has millions of lines.
public enum SummaryRenderer {
    public static func line(for record: FrameRecord) -> String {
        var out: [UInt8] = []
        record.withParts { write($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// One line for a frame from a capture: index, capture time, connection and direction, the
    /// packets that carried it, then the frame's own columns.
    public static func line(for frame: CapturedFrame) -> String {
        var out: [UInt8] = []
        frame.withView { write($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the line of a frame from a stream, without the newline.
    public static func write(_ parts: FrameParts, to out: inout [UInt8]) {
        var line = Columns(out)
        out = []
        line.add(width: 5) { $0 += "#".utf8; $0.appendDecimal(parts.index) }
        line.add(width: 8, right: true) { $0.appendDecimal(parts.streamOffset) }
        addColumns(for: parts, to: &line)
        out = line.bytes
    }

    /// Appends the line of a frame from a capture, without the newline.
    public static func write(_ frame: CapturedFrameView, to out: inout [UInt8]) {
        var line = Columns(out)
        out = []
        line.add(width: 5) { $0 += "#".utf8; $0.appendDecimal(frame.parts.index) }
        line.add { $0 += frame.time.timeOfDay.utf8 }
        line.add(width: 7) { $0 += "conn ".utf8; $0.appendDecimal(frame.connection.index) }
        line.add { $0 += frame.direction.arrow.utf8 }
        line.add(width: 11) { text in
            let first = frame.packets.first ?? 0, last = frame.packets.last ?? 0
            text += "pkt ".utf8
            text.appendDecimal(first)
            if first != last {
                text.append(UInt8(ascii: "-"))
                text.appendDecimal(last)
            }
        }
        addColumns(for: frame.parts, to: &line)
        out = line.bytes
    }

    /// The columns that describe the frame itself: type, sequence, session, body, tags, status.
    private static func addColumns(for parts: FrameParts, to line: inout Columns) {
        if let header = parts.header {
            line.add(width: 13) { $0 += header.messageType.description.utf8 }
            line.add(width: 22) { text in
                text += "seq ".utf8
                text += header.sequence.category.description.utf8
                text.append(UInt8(ascii: "/"))
                text.appendDecimal(header.sequence.counter)
            }
            line.add(width: 14) { text in
                text += "session 0x".utf8
                text.appendUppercaseHex(header.sessionID.rawValue)
            }
            line.add(width: 18) { text in
                text += "body ".utf8
                text.appendDecimal(header.bodyLength)
                if parts.isCompressed, let payload = parts.payload {
                    text += " zlib→".utf8
                    text.appendDecimal(payload.count)
                }
                if parts.isOpaque { text += " opaque".utf8 }
            }
            line.add(width: 24) { appendTagList(parts, to: &$0) }
        } else {
            let what = parts.error?.code == .badMagic ? "not a frame" : "no complete header"
            line.add(width: 96) { $0 += "(\(parts.bytes.count) bytes, \(what))".utf8 }
        }
        line.add { appendStatus(of: parts, to: &$0) }
    }

    /// The first few top-level tags shown, then how many more there are; `-` for none.
    private static func appendTagList(_ parts: FrameParts, to text: inout [UInt8]) {
        let shown = 6
        var count = 0
        for element in parts.fields ?? TLVSequenceView(UnsafeRawBufferPointer(start: nil, count: 0)) {
            guard parts.isShown(element) else { break }
            if count < shown {
                if count > 0 { text.append(UInt8(ascii: ",")) }
                text += (element.tag.name ?? Hex.format(element.tag.rawValue, width: 4)).utf8
            }
            count += 1
        }
        if count == 0 { text.append(UInt8(ascii: "-")) }
        if count > shown { text += ",+\(count - shown)".utf8 }
    }

    private static func appendStatus(of parts: FrameParts, to text: inout [UInt8]) {
        if let error = parts.error {
            text += "\(error.code.name) (\(error.requirement.rawValue)) at offset \(error.offset): \(error.message)".utf8
            return
        }
        let warnings = parts.warnings
        guard !warnings.isEmpty else {
            text += "ok".utf8
            return
        }
        text += "ok, \(warnings.count) warning\(warnings.count == 1 ? "" : "s"): ".utf8
        text += warnings.map(\.requirement.rawValue).joined(separator: ", ").utf8
    }

    /// Columns separated by one space, each padded to its width in characters.
    private struct Columns {
        private(set) var bytes: [UInt8]
        private let lineStart: Int

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            lineStart = bytes.count
        }

        /// Adds the column that `write` appends, padded to `width`.
        mutating func add(width: Int = 0, right: Bool = false, _ write: (inout [UInt8]) -> Void) {
            if bytes.count > lineStart { bytes.append(UInt8(ascii: " ")) }
            let start = bytes.count
            write(&bytes)
            // Columns hold no combining characters: a scalar (a UTF-8 byte that does not continue
            // another) is a character here, and far cheaper to count.
            var scalars = 0
            for index in start..<bytes.count where bytes[index] & 0xC0 != 0x80 { scalars += 1 }
            let gap = width - scalars
            guard gap > 0 else { return }
            if right {
                bytes.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: gap), at: start)
            } else {
                bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: gap))
            }
        }
    }
}
