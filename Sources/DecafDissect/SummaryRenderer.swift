import DecafWire

/// One line per frame record: offset, type, sequence, session, body size, top-level tags, status.
public enum SummaryRenderer {
    public static func line(for record: FrameRecord) -> String {
        ([pad("#\(record.index)", 5), pad("\(record.streamOffset)", 8, right: true)] + columns(for: record)).joined(separator: " ")
    }

    /// One line for a frame from a capture: index, capture time, connection and direction, the
    /// packets that carried it, then the frame's own columns.
    public static func line(for frame: CapturedFrame) -> String {
        let first = frame.packets.first ?? 0, last = frame.packets.last ?? 0
        let packets = first == last ? "pkt \(first)" : "pkt \(first)-\(last)"
        let prefix = [pad("#\(frame.record.index)", 5), frame.time.timeOfDay, pad("conn \(frame.connection.index)", 7),
                      frame.direction.arrow, pad(packets, 11)]
        return (prefix + columns(for: frame.record)).joined(separator: " ")
    }

    /// The columns that describe the frame itself: type, sequence, session, body, tags, status.
    static func columns(for record: FrameRecord) -> [String] {
        var columns: [String] = []
        if let header = record.header {
            var body = "\(header.bodyLength)"
            if record.isCompressed, let payload = record.payload { body += " zlib→\(payload.count)" }
            if record.isOpaque { body += " opaque" }
            let tags = record.fields.map(tagList) ?? "-"
            columns += [
                pad(header.messageType.description, 13),
                pad("seq \(header.sequence)", 22),
                pad("session \(header.sessionID)", 14),
                pad("body \(body)", 18),
                pad(tags.isEmpty ? "-" : tags, 24),
            ]
        } else {
            let what = record.error?.code == .badMagic ? "not a frame" : "no complete header"
            columns.append(pad("(\(record.bytes.count) bytes, \(what))", 96))
        }
        columns.append(status(of: record))
        return columns
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
        let count = record.warnings.count
        return count == 0 ? "ok" : "ok, \(count) warning\(count == 1 ? "" : "s"): " + record.warnings.map(\.requirement.rawValue).joined(separator: ", ")
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let gap = Padding.spaces(width - text.count)
        return right ? gap + text : text + gap
    }
}
