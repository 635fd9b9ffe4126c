import DecafWire

/// A TLV field in JSON: where its tag starts in the (decompressed) body, its tag and the brief's
/// name for it, its length, and either its value (hex, and read with its tag's layout) or, for a
/// container, its child fields. The dissector's records and the golden vector files write this
/// one form.
public struct TLVFieldJSON: Codable, Hashable, Sendable {
    public var offset: Int
    public var tag: UInt16
    public var name: String?
    public var length: Int
    /// The value as hex; absent for containers.
    public var value: String?
    public var decoded: Decoded?
    /// The child fields of a container.
    public var fields: [TLVFieldJSON]?

    /// A known tag's value read with its layout.
    public struct Decoded: Codable, Hashable, Sendable {
        public var text: String?
        public var version: String?
        public var features: UInt16?
        public var featureNames: [String]?
        public var sequence: UInt32?
        public var code: UInt16?
        public var codeName: String?
        public var reason: String?
        /// Why the value does not fit its tag's layout.
        public var malformed: String?
    }

    /// A received field, with the children `visible` keeps (a dissector shows no field past an error).
    public init(_ element: TLVElement, visible: (TLVSequence) -> [TLVElement]) {
        offset = element.offset
        tag = element.tag.rawValue
        name = element.tag.name
        length = element.value.count
        if element.isContainer {
            fields = visible(element.children).map { Self($0, visible: visible) }
        } else {
            value = Hex.string(element.value)
            decoded = Decoded(element.interpreted)
        }
    }

    /// The JSON of `fields` as they are laid out from `offset` on: each field's tag follows the
    /// previous field's value.
    public static func laidOut(_ fields: [TLVField], from offset: Int = 0) -> [TLVFieldJSON] {
        var next = offset
        return fields.map { field in
            defer { next += field.encodedLength }
            return TLVFieldJSON(field, at: next)
        }
    }

    private init(_ field: TLVField, at offset: Int) {
        self.offset = offset
        tag = field.tag.rawValue
        name = field.tag.name
        length = field.valueLength
        switch field.content {
        case let .bytes(bytes):
            value = Hex.string(bytes)
            decoded = Decoded(TLVValue(tag: field.tag, value: bytes[...]))
        case let .fields(children):
            fields = Self.laidOut(children, from: offset + TLVEncoder.fieldHeaderSize)
        }
    }

    /// The field this JSON describes, or nil if its value is not hex or a child is not a field.
    public var tlvField: TLVField? {
        if let value, let bytes = Hex.bytes(value) { return TLVField(tag: TLVTag(tag), bytes: bytes) }
        guard let fields else { return nil }
        let children = fields.compactMap(\.tlvField)
        guard children.count == fields.count else { return nil }
        return TLVField(tag: TLVTag(tag), content: .fields(children))
    }
}

extension TLVFieldJSON.Decoded {
    /// The decoded form of `value`, or nil for plain bytes.
    init?(_ value: TLVValue) {
        self.init()
        switch value {
        case let .text(text): self.text = text
        case let .versionRequest(offer): version = offer.version.description; features = offer.features.rawValue; featureNames = offer.features.names
        case let .versionResponse(offer): version = offer.version.description; features = offer.features.rawValue; featureNames = offer.features.names
        case let .readReceipt(receipt): sequence = receipt.sequence.rawValue
        case let .error(report): code = report.code; codeName = ErrorCode(rawValue: report.code)?.name; reason = report.reason
        case let .malformed(why): malformed = why
        case .bytes, .container: return nil
        }
    }
}
