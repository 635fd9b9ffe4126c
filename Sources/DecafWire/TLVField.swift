/// One TLV field as a value: a tag and either bytes or, for a container, child fields. This is
/// the model for building, encoding and comparing bodies; `TLVSequence` walks received bytes
/// without copying them.
public struct TLVField: Hashable, Sendable {
    /// A field's value.
    public enum Content: Hashable, Sendable {
        /// The value's bytes.
        case bytes([UInt8])
        /// A container's fields.
        case fields([TLVField])
    }

    /// The field's tag.
    public var tag: TLVTag
    /// What the value holds. A decoded container always has `.fields`; `.bytes` under the
    /// container tag writes those bytes verbatim, for crafting malformed nesting on purpose.
    public var content: Content

    /// A field of `tag` whose value is `bytes`, or the fields `bytes` parse to for a container.
    public init(tag: TLVTag, bytes: [UInt8]) {
        self.tag = tag
        content = .bytes(bytes)
    }

    /// A field whose value is `text` in UTF-8.
    public init(tag: TLVTag, text: String) {
        self.init(tag: tag, bytes: Array(text.utf8))
    }

    /// A container (tag 0xFFFF) holding `fields`.
    public static func container(_ fields: [TLVField]) -> TLVField {
        TLVField(tag: .container, content: .fields(fields))
    }

    /// A field of `tag` with `content`.
    public init(tag: TLVTag, content: Content) {
        self.tag = tag
        self.content = content
    }

    /// The field a received element describes, children included.
    public init(_ element: TLVElement) {
        tag = element.tag
        content = element.isContainer ? .fields(element.children.map(TLVField.init)) : .bytes(Array(element.value))
    }

    /// The value bytes, or nil for a container built from fields.
    public var bytes: [UInt8]? {
        if case let .bytes(bytes) = content { return bytes }
        return nil
    }

    /// The child fields, or nil for a field holding bytes.
    public var fields: [TLVField]? {
        if case let .fields(fields) = content { return fields }
        return nil
    }

    /// Bytes of the value once encoded.
    public var valueLength: Int {
        switch content {
        case let .bytes(bytes): bytes.count
        case let .fields(fields): fields.reduce(0) { $0 + $1.encodedLength }
        }
    }

    /// Bytes of the whole field once encoded: 6 header bytes and the value.
    public var encodedLength: Int { TLVEncoder.fieldHeaderSize + valueLength }
}
