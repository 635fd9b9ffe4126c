import DecafWire

/// The full tree of a frame, field by field, like `tshark -V`: the frame's title, a walk
/// over the frame model (`FieldTree`), then its warnings, its error and where it lies.
public enum TreeRenderer {
    static let indent = "    "

    public static func lines(for frame: FrameParts, registry: FieldRegistry = .brief) -> [String] {
        var lines = [title(of: frame)]
        if frame.header != nil {
            var tree = FieldTree()
            frame.fields.walk(&tree, naming: registry)
            lines += tree.finished().map { indent + $0 }
        } else if frame.error?.code == .badMagic {
            lines.append(indent + "Bytes: \(TLVValueText.hex(frame.bytes)) (no magic: not a frame)")
        } else if !frame.bytes.isEmpty {
            lines.append(indent + "Header: incomplete, \(frame.bytes.count) of \(FrameHeader.size) bytes: \(TLVValueText.hex(frame.bytes))")
        }
        for warning in frame.warnings(registry) {
            lines.append(indent + "[Warning \(warning.requirement.rawValue)] \(warning.message)")
            lines.append(indent + indent + rule(warning.requirement))
        }
        if let error = frame.error {
            lines += errorLines(error, frame: frame).map { indent + $0 }
        }
        if let bodyError = frame.untrustedBodyError {
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

    static func title(of frame: FrameParts) -> String {
        let state = frame.error.map { " [\($0.code.name)]" } ?? ""
        return "Frame \(frame.index): \(frame.bytes.count) bytes at stream offset \(frame.streamOffset)\(state)"
    }

    static func errorLines(_ error: WireError, frame: FrameParts) -> [String] {
        let place: String
        switch error.code {
        case .truncatedFrame: place = "at stream offset \(error.offset)"
        case let code where code.countsOffsetFromBody:
            place = "at body offset \(error.offset)\(frame.isCompressed ? " (decompressed)" : ", stream offset \(frame.streamOffset + FrameHeader.size + error.offset)")"
        default: place = "at frame offset \(error.offset), stream offset \(frame.streamOffset + error.offset)"
        }
        return ["[Error \(error.code.name) (\(error.requirement.rawValue))] \(place): \(error.message)", indent + rule(error.requirement)]
            + ErrorExcerpt.lines(for: frame, error: error).map { indent + $0 }
    }

    /// What the requirement says, so a reader need not look it up.
    static func rule(_ requirement: RequirementID) -> String {
        "Rule \(requirement.rawValue): \(requirement.summary)"
    }
}
