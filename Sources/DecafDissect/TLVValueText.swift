import DecafWire

/// How a field's value reads in text: decoded by its tag's layout where the registry defines one,
/// hex otherwise.
enum TLVValueText {
    /// At most this many value bytes are printed as hex.
    static let hexLimit = 32

    static func describe(_ field: TLVFieldItem) -> String {
        switch field.interpreted {
        case let .text(text): return quoted(text)
        case let .versionRequest(offer): return "version \(offer.version), features \(offer.features)"
        case let .versionResponse(offer): return "version \(offer.version), features \(offer.features)"
        case let .readReceipt(receipt):
            return "sequence \(Hex.word(receipt.sequence.rawValue)) (\(receipt.sequence))"
        case let .error(report):
            let name = ErrorCode(rawValue: report.code).map { " \($0.name)" } ?? " (undefined)"
            return "code \(report.code)\(name), reason \(quoted(report.reason))"
        case .container:
            let count = field.element.children.reduce(0) { count, _ in count + 1 }
            return "\(count) field\(count == 1 ? "" : "s")"
        case .bytes: return hex(field.value)
        case let .malformed(why): return "\(hex(field.value)) [malformed: \(why)]"
        }
    }

    /// `TEXT (0x1001)`, or `0x7FFF (unknown tag)`.
    static func tagName(_ field: TLVFieldItem) -> String {
        let hex = Hex.format(field.tag.rawValue, width: 4)
        return field.name.map { "\($0) (\(hex))" } ?? "\(hex) (unknown tag)"
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        guard !bytes.isEmpty else { return "(empty)" }
        let shown = Hex.spaced(bytes.prefix(hexLimit))
        return bytes.count > hexLimit ? "\(shown) … (\(bytes.count - hexLimit) more)" : shown
    }

    static func quoted(_ text: String) -> String {
        let limit = 120
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return shown.debugDescription
    }
}
