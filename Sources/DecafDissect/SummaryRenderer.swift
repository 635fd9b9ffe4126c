import DecafWire

/// One line per frame record: offset, type, sequence, session, body size, top-level tags, status.
public enum SummaryRenderer {
    public static func line(for record: FrameRecord) -> String {
        var columns = [pad("#\(record.index)", 5), pad("\(record.streamOffset)", 8, right: true)]
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
        return columns.joined(separator: " ")
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
        let gap = String(repeating: " ", count: max(0, width - text.count))
        return right ? gap + text : text + gap
    }
}
