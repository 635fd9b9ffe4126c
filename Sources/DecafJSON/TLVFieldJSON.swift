import DecafWire
import Foundation

/// A TLV field in JSON, as readers decode it: where its tag starts in the (decompressed) body, its
/// tag and the brief's name for it, its length, and either its value (hex, and read with its tag's
/// layout) or, for a container, its child fields. `TLVFieldJSONWriter` is what writes it; a value
/// of this type is read back from its bytes (`written`, `laidOut`), so the dissector's lines and
/// the golden vector files hold one form.
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

    /// The fields a walk over `fields` shows (those before a TLV error), as `TLVFieldJSONWriter`
    /// writes them: read back from its bytes, so there is one definition of a field's JSON.
    public static func written(_ fields: FrameFields, registry: FieldRegistry = .brief) throws -> [TLVFieldJSON] {
        let out = OutputBuffer(capacity: 4096)
        var writer = TLVFieldJSONWriter(writer: JSONWriter(into: out))
        writer.writer.beginArray()
        fields.walkTLVFields(&writer, naming: registry)
        writer.writer.endArray()
        return try JSONDecoder().decode([TLVFieldJSON].self, from: Data(out.bytes))
    }

    /// The JSON of `fields` as a body that holds them lays them out, from body offset 0.
    public static func laidOut(_ fields: [TLVField], registry: FieldRegistry = .brief) throws -> [TLVFieldJSON] {
        try TLVEncoder.encode(fields).withUnsafeBytes { try written(FrameFields(body: $0), registry: registry) }
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
