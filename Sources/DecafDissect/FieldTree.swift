import DecafWire
import Foundation

/// The tree lines of a frame with a whole header, one per field as the frame model yields it: each
/// header field under its title with its value in hex, decimal and words; the body; each TLV field
/// indented by its depth, with its value read by its tag's layout.
struct FieldTree: FrameFieldVisitor {
    private var lines: [String] = []
    private var versionMajor: UInt32 = 0
    /// Where the body's line goes, and its text before the field count, once the fields are shown.
    private var bodyLine: (index: Int, text: String)?
    private var topLevelFields = 0

    /// The lines, once the walk is over.
    func finished() -> [String] {
        guard let bodyLine else { return lines }
        var lines = lines
        lines[bodyLine.index] = bodyLine.text + ", \(topLevelFields) field\(topLevelFields == 1 ? "" : "s")"
        return lines
    }

    mutating func visitHeaderField(_ item: HeaderFieldItem) {
        let value = item.value
        let title = item.field.title
        let hex = Hex.format(value, width: 2 * item.field.size)
        switch item.field {
        case .versionMajor:
            versionMajor = value
        case .versionMinor:
            let version = ProtocolVersion(major: UInt8(truncatingIfNeeded: versionMajor), minor: UInt8(truncatingIfNeeded: value))
            lines.append("Version: \(version) (major \(versionMajor), minor \(value))")
        case .magic:
            let state = value == FrameHeader.magic ? "correct" : "expected \(Hex.word(FrameHeader.magic))"
            lines.append("\(title): \(hex) (\(value)) [\(state)]")
        case .sequence:
            let sequence = SequenceNumber(rawValue: value)
            lines.append("\(title): \(hex) (\(value))")
            lines.append(TreeRenderer.indent + "Category: \(sequence.category) (\(sequence.category.rawValue))")
            lines.append(TreeRenderer.indent + "Counter: \(sequence.counter)")
        case .checksum:
            lines.append("\(title): \(hex) (\(value))" + Self.checksumState(item))
        default:
            switch item.field.display {
            case .named: lines.append("\(title): \(item.valueName ?? "UNKNOWN(\(value))") (\(hex), \(value))")
            case .time: lines.append("\(title): \(hex) (\(value)), \(UTCTime.iso8601(value))")
            case .hex, .decimal: lines.append("\(title): \(hex) (\(value))")
            }
        }
    }

    private static func checksumState(_ item: HeaderFieldItem) -> String {
        guard let computed = item.computedChecksum else { return " [not checked: the body did not arrive]" }
        switch ChecksumVerdict(stored: item.value, computed: computed) {
        case .correct:
            return " [correct]"
        case let .mismatch(byteSwapped):
            let swapped = byteSwapped ? "; it is the correct CRC written in little-endian (CRC-3)" : ""
            return " [mismatch: expected \(Hex.word(computed)), the body's CRC-32, actual \(Hex.word(item.value))\(swapped)]"
        }
    }

    mutating func visitBody(_ body: BodyItem) {
        let size = body.range.count
        guard body.isComplete else {
            lines.append("Body: \(size) of \(body.declaredLength) bytes arrived")
            return
        }
        if body.encoding == .opaque {
            lines.append("Body: \(size) bytes, encrypted (AES256), not parsed")
            return
        }
        guard let payload = body.payload else {
            lines.append("Body: \(size) bytes\(body.encoding == .zlib ? ", zlib stream" : ""), not readable")
            return
        }
        var text = "Body: \(size) bytes"
        if body.encoding == .zlib {
            let ratio = size == 0 ? 0 : Double(payload.count) / Double(size)
            text += ", zlib stream, inflated to \(payload.count) bytes (\(ratio.formatted(.number.precision(.fractionLength(1))))x)"
        }
        bodyLine = (lines.count, text)
        lines.append("")
    }

    mutating func enterTLVField(_ field: TLVFieldItem) {
        guard bodyLine != nil else { return }
        if field.depth == 0 { topLevelFields += 1 }
        let count = field.value.count
        let prefix = Padding.spaces(TreeRenderer.indent.count * (field.depth + 1))
        lines.append(prefix + "\(TLVValueText.tagName(field)), \(count) byte\(count == 1 ? "" : "s"): \(TLVValueText.describe(field))")
    }
}
