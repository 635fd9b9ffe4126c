import DecafWire

/// The full tree of a frame record, field by field, like `tshark -V`: the frame's title, a walk
/// over the frame model (`FieldTree`), then its warnings, its error and where it lies.
public enum TreeRenderer {
    static let indent = "    "

    public static func lines(for record: FrameRecord, registry: FieldRegistry = .brief) -> [String] {
        var lines = [title(of: record)]
        if record.header != nil {
            var tree = FieldTree()
            record.withParts { $0.fields.walk(&tree, naming: registry) }
            lines += tree.finished().map { indent + $0 }
        } else if record.error?.code == .badMagic {
            lines.append(indent + "Bytes: \(TLVValueText.hex(record.bytes[...])) (no magic: not a frame)")
        } else if !record.bytes.isEmpty {
            lines.append(indent + "Header: incomplete, \(record.bytes.count) of \(FrameHeader.size) bytes: \(TLVValueText.hex(record.bytes[...]))")
        }
        for warning in record.warnings(registry) {
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
