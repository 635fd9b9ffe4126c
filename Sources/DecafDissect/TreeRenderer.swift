import DecafWire

/// The full tree of a frame record, field by field, like `tshark -V`.
public enum TreeRenderer {
    static let indent = "    "

    public static func lines(for record: FrameRecord) -> [String] {
        var lines = [title(of: record)]
        if let header = record.header {
            lines += headerLines(header, record: record).map { indent + $0 }
            lines += bodyLines(record, header: header).map { indent + $0 }
        } else if record.error?.code == .badMagic {
            lines.append(indent + "Bytes: \(TLVValueText.hex(record.bytes[...])) (no magic: not a frame)")
        } else if !record.bytes.isEmpty {
            lines.append(indent + "Header: incomplete, \(record.bytes.count) of \(FrameHeader.size) bytes: \(TLVValueText.hex(record.bytes[...]))")
        }
        for warning in record.warnings {
            lines.append(indent + "[Warning \(warning.requirement.rawValue)] \(warning.message)")
            lines.append(indent + indent + rule(warning.requirement))
        }
        if let error = record.error {
            lines += errorLines(error, record: record).map { indent + $0 }
        }
        if let bodyError = record.untrustedBodyError {
            lines.append(indent + "[Note] the untrusted body would also break \(bodyError.requirement.rawValue) at body offset \(bodyError.offset): \(bodyError.code.name), \(bodyError.message)")
        }
        return lines
    }

    /// The lines for a resynchronization note.
    public static func resynchronizationLine(skipped: Int, resumedAt: Int?) -> String {
        let bytes = "\(skipped) byte\(skipped == 1 ? "" : "s")"
        guard let resumedAt else { return "[Resynchronized] no further magic: skipped \(bytes) to the end of the input" }
        return "[Resynchronized] skipped \(bytes); decoding resumed at stream offset \(resumedAt)"
    }

    static func title(of record: FrameRecord) -> String {
        let state = record.error.map { " [\($0.code.name)]" } ?? ""
        return "Frame \(record.index): \(record.bytes.count) bytes at stream offset \(record.streamOffset)\(state)"
    }

    static func headerLines(_ header: FrameHeader, record: FrameRecord) -> [String] {
        let magicState = header.magic == FrameHeader.magic ? "correct" : "expected \(Hex.word(FrameHeader.magic))"
        var lines = [
            "Magic: \(Hex.word(header.magic)) (\(header.magic)) [\(magicState)]",
            "Version: \(header.version) (major \(header.version.major), minor \(header.version.minor))",
            "Message type: \(header.messageType) (\(Hex.format(header.messageType.rawValue, width: 4)), \(header.messageType.rawValue))",
            "Sequence: \(Hex.word(header.sequence.rawValue)) (\(header.sequence.rawValue))",
            indent + "Category: \(header.sequence.category) (\(header.sequence.category.rawValue))",
            indent + "Counter: \(header.sequence.counter)",
            "Timestamp: \(Hex.word(header.timestamp)) (\(header.timestamp)), \(UTCTime.iso8601(header.timestamp))",
            "Encrypt type: \(header.encryptType) (\(Hex.format(header.encryptType.rawValue, width: 2)), \(header.encryptType.rawValue))",
            "Compress type: \(header.compressType) (\(Hex.format(header.compressType.rawValue, width: 2)), \(header.compressType.rawValue))",
            "Session id: \(Hex.format(header.sessionID.rawValue, width: 4)) (\(header.sessionID.rawValue))",
            "Body length: \(Hex.word(header.bodyLength)) (\(header.bodyLength))",
        ]
        let checksum = "Checksum: \(Hex.word(header.checksum)) (\(header.checksum))"
        if let computed = record.computedChecksum {
            switch ChecksumVerdict(stored: header.checksum, computed: computed) {
            case .correct:
                lines.append(checksum + " [correct]")
            case let .mismatch(byteSwapped):
                let swapped = byteSwapped ? "; it is the correct CRC written in little-endian (CRC-3)" : ""
                lines.append(checksum + " [mismatch: expected \(Hex.word(computed)), the body's CRC-32, actual \(Hex.word(header.checksum))\(swapped)]")
            }
        } else {
            lines.append(checksum + " [not checked: the body did not arrive]")
        }
        return lines
    }

    static func bodyLines(_ record: FrameRecord, header: FrameHeader) -> [String] {
        guard let body = record.body else {
            let arrived = max(0, record.bytes.count - FrameHeader.size)
            return ["Body: \(arrived) of \(header.bodyLength) bytes arrived"]
        }
        if record.isOpaque { return ["Body: \(body.count) bytes, encrypted (AES256), not parsed"] }
        guard let payload = record.payload else {
            return ["Body: \(body.count) bytes\(record.isCompressed ? ", zlib stream" : ""), not readable"]
        }
        let fields = record.fields ?? []
        let count = "\(fields.count) field\(fields.count == 1 ? "" : "s")"
        var lines: [String]
        if record.isCompressed {
            let ratio = body.isEmpty ? 0 : Double(payload.count) / Double(body.count)
            lines = ["Body: \(body.count) bytes, zlib stream, inflated to \(payload.count) bytes (\(ratio.formatted(.number.precision(.fractionLength(1))))x), \(count)"]
        } else {
            lines = ["Body: \(body.count) bytes, \(count)"]
        }
        lines += fieldLines(fields, record: record, depth: 1)
        return lines
    }

    static func fieldLines(_ fields: [TLVElement], record: FrameRecord, depth: Int) -> [String] {
        var lines: [String] = []
        let prefix = Padding.spaces(indent.count * depth)
        for element in fields {
            let size = "\(element.value.count) byte\(element.value.count == 1 ? "" : "s")"
            lines.append(prefix + "\(TLVValueText.tagName(element.tag)), \(size): \(TLVValueText.describe(element))")
            if element.isContainer { lines += fieldLines(record.visible(element.children), record: record, depth: depth + 1) }
        }
        return lines
    }

    static func errorLines(_ error: WireError, record: FrameRecord) -> [String] {
        let place: String
        switch error.code {
        case .truncatedFrame: place = "at stream offset \(error.offset)"
        case let code where code.countsOffsetFromBody:
            place = "at body offset \(error.offset)\(record.isCompressed ? " (decompressed)" : ", stream offset \(record.streamOffset + FrameHeader.size + error.offset)")"
        default: place = "at frame offset \(error.offset), stream offset \(record.streamOffset + error.offset)"
        }
        return ["[Error \(error.code.name) (\(error.requirement.rawValue))] \(place): \(error.message)", indent + rule(error.requirement)]
            + ErrorExcerpt.lines(for: record, error: error).map { indent + $0 }
    }

    /// What the requirement says, so a reader need not look it up.
    static func rule(_ requirement: RequirementID) -> String {
        "Rule \(requirement.rawValue): \(requirement.summary)"
    }
}
