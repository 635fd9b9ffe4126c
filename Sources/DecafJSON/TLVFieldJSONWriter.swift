import DecafWire

/// Writes TLV fields in JSON from a walk over the frame model: each field an object with its
/// offset, tag, the registry's name for it and its length, and either its value (hex, and read
/// with its tag's layout) or, for a container, its fields. The one definition of a field's JSON:
/// `decaf dissect --json` writes it straight into its line, and `TLVFieldJSON`, which readers
/// decode, is read back from what it writes (`TLVFieldJSON.written`).
public struct TLVFieldJSONWriter: FrameFieldVisitor {
    public var writer: JSONWriter

    @inlinable
    public init(writer: JSONWriter) {
        self.writer = writer
    }

    @inlinable
    public mutating func enterTLVField(_ field: TLVFieldItem) {
        writer.beginObject()
        if field.isContainer {
            writer.key("fields")
            writer.beginArray()
        } else {
            writeDecoded(field)
        }
    }

    @inlinable
    public mutating func exitTLVField(_ field: TLVFieldItem) {
        if field.isContainer { writer.endArray() }
        writer.member("length", field.value.count)
        writer.member("name", name: field.nameBytes)
        writer.member("offset", field.element.offset)
        writer.member("tag", field.tag.rawValue)
        if !field.isContainer {
            writer.key("value")
            writer.hex(field.value)
        }
        writer.endObject()
    }

    /// The `decoded` member of a field whose tag has a layout: its value read with it, or why it
    /// does not fit. Text is its value's bytes, written as they are; other layouts are read by
    /// DecafWire's `TLVValue`.
    @usableFromInline
    mutating func writeDecoded(_ field: TLVFieldItem) {
        let layout = field.layout
        guard layout != .bytes, layout != .container else { return }
        writer.key("decoded")
        writer.object { writer in
            if let why = field.misfit {
                writer.member("malformed", why)
                return
            }
            if layout == .utf8 {
                writer.key("text")
                writer.text(field.value)
                return
            }
            switch field.interpreted {
            case let .versionRequest(offer): Self.writeOffer(offer, to: &writer)
            case let .versionResponse(offer): Self.writeOffer(offer, to: &writer)
            case let .readReceipt(receipt): writer.member("sequence", receipt.sequence.rawValue)
            case let .error(report):
                writer.member("code", report.code)
                writer.member("codeName", ErrorCode(rawValue: report.code)?.name)
                writer.member("reason", report.reason)
            case .text, .container, .bytes, .malformed:
                break
            }
        }
    }

    @usableFromInline
    static func writeOffer(_ offer: some VersionOffer, to writer: inout JSONWriter) {
        writer.key("featureNames")
        writer.array(offer.features.names) { $0.string($1) }
        writer.member("features", offer.features.rawValue)
        writer.member("version", offer.version.description)
    }
}
