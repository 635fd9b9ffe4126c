import DecafNIO
import DecafWire

/// The bytes of a case's connection as an annotated hexdump: each write or read with its time,
/// direction and meaning (what was sent; the frames the target's bytes hold), then its bytes.
public enum TranscriptRenderer {
    /// Bytes shown per entry at most; the rest is counted, not shown.
    public static let shownBytes = 256

    public static func lines(_ transcript: [TranscriptEntry]) -> [String] {
        var lines: [String] = []
        var decoders: [Int: FrameDecoder] = [:]
        var failed: Set<Int> = []
        var gapped: Set<Int> = []
        let numbered = Set(transcript.compactMap(\.connection)).count > 1
        for entry in transcript {
            let time = DurationText.milliseconds(entry.time, decimals: 3)
            if entry.direction == .reported || entry.direction == .noted {
                let limit = entry.direction == .noted ? entry.bytes.count : shownBytes
                lines.append("· \(time) \(entry.direction.rawValue): \(String(decoding: entry.bytes.prefix(limit), as: UTF8.self))\(entry.bytes.count > limit ? "…" : "")")
                continue
            }
            let connection = entry.connection ?? 0
            if entry.notKept > 0 {
                // The stream goes on past bytes not kept: its frames can no longer be told apart.
                lines.append("… \(time) \(entry.label ?? "\(entry.notKept) bytes not kept")")
                gapped.insert(connection)
                continue
            }
            let arrow = entry.direction == .sent ? "→" : "←"
            var meaning = entry.label ?? (gapped.contains(connection) ? "bytes after those not kept" : "")
            if entry.direction == .received, !failed.contains(connection), !gapped.contains(connection) {
                var decoder = decoders[connection] ?? FrameDecoder(options: .observer)
                decoder.append(entry.bytes)
                var frames: [String] = []
                do {
                    while let frame = try decoder.nextFrame() { frames.append(describe(frame)) }
                } catch {
                    failed.insert(connection)
                    frames.append("bytes that break the protocol: \(error)")
                }
                decoders[connection] = decoder
                meaning = frames.isEmpty ? "part of a frame" : frames.joined(separator: "; ")
            }
            let on = numbered ? " #\(connection + 1)" : ""
            lines.append("\(arrow)\(on) \(time) \(entry.direction == .sent ? "sent" : "received") \(entry.bytes.count) bytes: \(meaning)")
            lines += hexdump(entry.bytes)
        }
        return lines
    }

    /// `ACK seq NORMAL/1`, `CONTROL seq CONTROL/1 [VERSION_RESPONSE 1.0 0x001F]`, `... [ERROR 4 ...]`.
    static func describe(_ frame: Frame) -> String {
        let fields = frame.fields.map { field -> String in
            switch field.interpreted {
            case let .versionResponse(response): "VERSION_RESPONSE \(response.version) features \(response.features)"
            case let .error(report): "ERROR \(report.code) \(ErrorCode(rawValue: report.code)?.name ?? "?"): \(report.reason)"
            case let .readReceipt(receipt): "READ_RECEIPT of \(receipt.sequence)"
            default: "\(field.tag)"
            }
        }
        let body = fields.isEmpty ? "" : " [" + fields.joined(separator: ", ") + "]"
        return "\(frame.header.messageType) seq \(frame.header.sequence) session \(Hex.format(frame.header.sessionID.rawValue, width: 4))\(body)"
    }

    private static func hexdump(_ bytes: [UInt8]) -> [String] {
        var lines = stride(from: 0, to: min(bytes.count, shownBytes), by: 16).map { start in
            "    " + Hex.format(start, width: 4).dropFirst(2) + "  " + Hex.spaced(bytes[start..<min(start + 16, bytes.count, shownBytes)])
        }
        if bytes.count > shownBytes { lines.append("    … \(bytes.count - shownBytes) more bytes") }
        return lines
    }
}
