import DecafWire

/// One line per frame record: offset, type, sequence, session, body size, top-level tags, status.
/// Each line is written into one string as it goes: a capture has millions of them.
public enum SummaryRenderer {
    public static func line(for record: FrameRecord) -> String {
        var line = Line()
        line.add("#\(record.index)", width: 5)
        line.add(String(record.streamOffset), width: 8, right: true)
        addColumns(for: record, to: &line)
        return line.text
    }

    /// One line for a frame from a capture: index, capture time, connection and direction, the
    /// packets that carried it, then the frame's own columns.
    public static func line(for frame: CapturedFrame) -> String {
        let first = frame.packets.first ?? 0, last = frame.packets.last ?? 0
        var line = Line()
        line.add("#\(frame.record.index)", width: 5)
        line.add(frame.time.timeOfDay)
        line.add("conn \(frame.connection.index)", width: 7)
        line.add(frame.direction.arrow)
        line.add(first == last ? "pkt \(first)" : "pkt \(first)-\(last)", width: 11)
        addColumns(for: frame.record, to: &line)
        return line.text
    }

    /// The columns that describe the frame itself: type, sequence, session, body, tags, status.
    private static func addColumns(for record: FrameRecord, to line: inout Line) {
        if let header = record.header {
            var body = "body \(header.bodyLength)"
            if record.isCompressed, let payload = record.payload { body += " zlib→\(payload.count)" }
            if record.isOpaque { body += " opaque" }
            let tags = record.fields.map(tagList) ?? "-"
            line.add(header.messageType.description, width: 13)
            line.add("seq \(header.sequence)", width: 22)
            line.add("session \(header.sessionID)", width: 14)
            line.add(body, width: 18)
            line.add(tags.isEmpty ? "-" : tags, width: 24)
        } else {
            let what = record.error?.code == .badMagic ? "not a frame" : "no complete header"
            line.add("(\(record.bytes.count) bytes, \(what))", width: 96)
        }
        line.add(status(of: record))
    }

    /// The first few top-level tags, then how many more there are.
    static func tagList(_ fields: [TLVElement]) -> String {
        let shown = 6
        let names = fields.prefix(shown).map { $0.tag.name ?? Hex.format($0.tag.rawValue, width: 4) }.joined(separator: ",")
        return fields.count > shown ? names + ",+\(fields.count - shown)" : names
    }

    static func status(of record: FrameRecord) -> String {
        if let error = record.error {
            return "\(error.code.name) (\(error.requirement.rawValue)) at offset \(error.offset): \(error.message)"
        }
        let warnings = record.warnings
        let count = warnings.count
        return count == 0 ? "ok" : "ok, \(count) warning\(count == 1 ? "" : "s"): " + warnings.map(\.requirement.rawValue).joined(separator: ", ")
    }

    /// Columns separated by one space, each padded to its width in characters, written as UTF-8
    /// bytes and made a string once.
    private struct Line {
        private var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(192) }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        mutating func add(_ column: String, width: Int = 0, right: Bool = false) {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
            // Columns hold no combining characters: a scalar (a UTF-8 byte that does not continue
            // another) is a character here, and far cheaper to count.
            let utf8 = column.utf8
            let scalars = utf8.withContiguousStorageIfAvailable { $0.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
                ?? column.unicodeScalars.count
            let gap = max(0, width - scalars)
            if right { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: gap)) }
            bytes.append(contentsOf: utf8)
            if !right { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: gap)) }
        }
    }
}
