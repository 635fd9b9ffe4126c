import DecafWire
import Foundation

/// A TLV field written as text, as `decaf build --tlv TAG=VALUE` takes it. TAG is a name
/// (`TEXT`) or a number (`4097`, `0x1001`). VALUE is text by default; `hex:` or `0x` give bytes,
/// `u16:`/`u32:` a big-endian number, `text:` forces text, and a JSON array (`[...]`) gives the
/// child fields of a container, each `{"tag": ..., "text"|"hex"|"u16"|"u32"|"fields": ...}`.
public enum TLVFieldSpec {
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// The field `argument` describes.
    public static func field(_ argument: String) throws(Invalid) -> TLVField {
        guard let equals = argument.firstIndex(of: "=") else { throw Invalid(description: "\(argument): expected TAG=VALUE") }
        let tag = try tag(String(argument[..<equals]))
        let value = String(argument[argument.index(after: equals)...])
        if value.hasPrefix("[") {
            guard let data = value.data(using: .utf8), let array = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
                throw Invalid(description: "\(argument): the nested fields are not a JSON array")
            }
            return TLVField(tag: tag, content: .fields(try array.map(field(json:))))
        }
        return TLVField(tag: tag, bytes: try bytes(value))
    }

    /// A tag by name or number.
    public static func tag(_ text: String) throws(Invalid) -> TLVTag {
        if let known = TLVTag.known.first(where: { $0.name == text.uppercased() }) { return known }
        let lower = text.lowercased()
        if let value = lower.hasPrefix("0x") ? UInt16(lower.dropFirst(2), radix: 16) : UInt16(lower) { return TLVTag(value) }
        throw Invalid(description: "\(text) is not a tag name or a 16-bit number")
    }

    private static func bytes(_ value: String) throws(Invalid) -> [UInt8] {
        let lower = value.lowercased()
        if lower.hasPrefix("hex:") || lower.hasPrefix("0x") {
            guard let bytes = Hex.bytes(value.dropFirst(lower.hasPrefix("0x") ? 0 : 4)) else { throw Invalid(description: "\(value) is not hex") }
            return bytes
        }
        if lower.hasPrefix("u16:") {
            guard let number = UInt16(value.dropFirst(4)) else { throw Invalid(description: "\(value) is not a u16") }
            return [UInt8(number >> 8), UInt8(truncatingIfNeeded: number)]
        }
        if lower.hasPrefix("u32:") {
            guard let number = UInt32(value.dropFirst(4)) else { throw Invalid(description: "\(value) is not a u32") }
            return (0..<4).map { UInt8(truncatingIfNeeded: number >> (24 - 8 * $0)) }
        }
        return Array((lower.hasPrefix("text:") ? String(value.dropFirst(5)) : value).utf8)
    }

    private static func field(json: Any) throws(Invalid) -> TLVField {
        guard let object = json as? [String: Any], let tagValue = object["tag"] else {
            throw Invalid(description: "each nested field is an object with a \"tag\"")
        }
        let tag = try tag(tagValue as? String ?? "\(tagValue)")
        if let children = object["fields"] as? [Any] { return TLVField(tag: tag, content: .fields(try children.map(field(json:)))) }
        for key in ["text", "hex", "u16", "u32"] {
            if let value = object[key] { return TLVField(tag: tag, bytes: try bytes("\(key):\(value)")) }
        }
        throw Invalid(description: "nested field \(tagValue) needs one of text, hex, u16, u32 or fields")
    }
}
