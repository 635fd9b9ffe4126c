import DecafWire

/// Which bytes of a frame belong to which field, each with the label a hexdump prints beside it:
/// header fields, then the body's TLV fields (in the decompressed body when the frame is
/// compressed), then anything left unexplained. A walk over the frame model.
public struct FrameLayout: FrameFieldVisitor {
    public private(set) var spans: [FieldSpan] = []

    public static func spans(of frame: FrameParts, registry: FieldRegistry = .brief) -> [FieldSpan] {
        var layout = FrameLayout()
        frame.fields.walk(&layout, naming: registry)
        return layout.spans
    }

    public mutating func visitNotAFrame(_ range: Range<Int>) {
        spans.append(FieldSpan(.frame, range, "not a frame (no magic)"))
    }

    public mutating func visitHeaderField(_ field: HeaderFieldItem) {
        spans.append(FieldSpan(.frame, field.range, "\(field.field.name) \(field.valueText)"))
    }

    public mutating func visitIncompleteHeader(_ range: Range<Int>) {
        spans.append(FieldSpan(.frame, range, "incomplete header field"))
    }

    public mutating func visitBody(_ body: BodyItem) {
        guard body.encoding != .plain || body.payload == nil, !body.range.isEmpty else { return }
        let what = switch body.encoding {
        case .opaque: "encrypted body (opaque)"
        case .zlib: "zlib body"
        case .plain: "body"
        }
        spans.append(FieldSpan(.frame, body.range, "\(what), \(body.range.count) bytes"))
    }

    public mutating func enterTLVField(_ field: TLVFieldItem) {
        spans.append(FieldSpan(field.region, field.headerRange, "\(field.label) tag, length \(field.value.count)", depth: field.depth))
        if !field.isContainer && !field.value.isEmpty {
            spans.append(FieldSpan(field.region, field.valueRange, "\(field.label) value", depth: field.depth))
        }
    }

    public mutating func visitUnparsed(_ unparsed: UnparsedItem) {
        let what = unparsed.afterError ? "bytes after the error, not parsed" : "unparsed bytes"
        spans.append(FieldSpan(unparsed.region, unparsed.range, what, depth: unparsed.depth))
    }

    public mutating func visitTrailing(_ range: Range<Int>) {
        spans.append(FieldSpan(.frame, range, "bytes after the frame"))
    }
}
