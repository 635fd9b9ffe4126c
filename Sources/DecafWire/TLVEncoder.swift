/// Writes TLV fields as the brief lays them out: tag u16, length u32, value, no padding (TLV-1).
public enum TLVEncoder {
    /// Bytes before each value: the tag and the length.
    public static let fieldHeaderSize = 6

    /// The body bytes for `fields`.
    public static func encode(_ fields: [TLVField]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(fields.reduce(0) { $0 + $1.encodedLength })
        append(fields, to: &out)
        return out
    }

    /// Appends the bytes for `fields`. Every value must be shorter than 4 GiB.
    public static func append(_ fields: [TLVField], to out: inout [UInt8]) {
        for field in fields {
            let length = field.valueLength
            precondition(length <= Int(UInt32.max), "a TLV value must be shorter than 4 GiB")
            out.appendBigEndian(field.tag.rawValue)
            out.appendBigEndian(UInt32(length))
            switch field.content {
            case let .bytes(bytes): out.append(contentsOf: bytes)
            case let .fields(children): append(children, to: &out)
            }
        }
    }
}
