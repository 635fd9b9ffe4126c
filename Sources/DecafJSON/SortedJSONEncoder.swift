/// Encodes a value as JSON with sorted keys: the bytes Foundation's `JSONEncoder` writes with
/// `.sortedKeys` and `.withoutEscapingSlashes` (keys in UTF-8 order, `null` values left out, whole
/// doubles below 10^16 without a fraction), on one line or, with `pretty`, laid out as its
/// `.prettyPrinted` lays it out (two spaces a level, `"key" : value`). Every JSON Decaf prints goes
/// through it (lines, reports, the fixture files, the proxy's control API), but for frames, which
/// `FrameJSONWriter` writes straight from their bytes with `JSONWriter`.
public enum SortedJSONEncoder {
    public static func encode(_ value: some Encodable, pretty: Bool = false) throws -> String {
        String(decoding: try bytes(value, pretty: pretty), as: UTF8.self)
    }

    /// The UTF-8 bytes of `encode`.
    public static func bytes(_ value: some Encodable, pretty: Bool = false) throws -> [UInt8] {
        let encoder = NodeEncoder(codingPath: [])
        try value.encode(to: encoder)
        let out = OutputBuffer(capacity: 256)
        write(encoder.result, to: out, indent: pretty ? 0 : nil)
        return Array(out.bytes)
    }

    /// Writes `node`; `indent` is its nesting depth when pretty, nil on one line.
    private static func write(_ node: JSONNode, to out: OutputBuffer, indent: Int?) {
        switch node {
        case .null: out.append("null")
        case let .bool(value): out.append(value ? "true" : "false")
        case let .number(text): out.append(text)
        case let .string(text): JSONWriter.appendString(text, to: out)
        case let .array(array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(to: out, indent: indent.map { $0 + 1 })
                write(element, to: out, indent: indent.map { $0 + 1 })
            }
            close("]", empty: array.elements.isEmpty, to: out, indent: indent)
        case let .object(object):
            out.append(UInt8(ascii: "{"))
            let entries = object.entries
            let order = entries.indices.sorted { precedes(entries[$0].key, entries[$1].key) }
            for (position, index) in order.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                newline(to: out, indent: indent.map { $0 + 1 })
                JSONWriter.appendString(entries[index].key, to: out)
                out.append(indent == nil ? ":" : " : ")
                write(entries[index].value, to: out, indent: indent.map { $0 + 1 })
            }
            close("}", empty: entries.isEmpty, to: out, indent: indent)
        case let .deferred(encoder):
            write(encoder.result, to: out, indent: indent)
        }
    }

    /// When pretty, a new line indented to `indent` levels.
    private static func newline(to out: OutputBuffer, indent: Int?) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(repeating: UInt8(ascii: " "), count: 2 * indent)
    }

    /// Ends an array or object; when pretty, on a line of its own (an empty one as Foundation
    /// writes it: an empty line between the brackets).
    private static func close(_ bracket: StaticString, empty: Bool, to out: OutputBuffer, indent: Int?) {
        if let indent {
            if empty { out.append(UInt8(ascii: "\n")) }
            newline(to: out, indent: indent)
        }
        out.append(bracket)
    }

    /// Whether `a` comes before `b` in UTF-8 byte order, the order of sorted keys.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        let contiguous = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b in a.lexicographicallyPrecedes(b) }
        }
        return (contiguous ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// A double as Foundation writes it: whole values below 10^16 as integers, others as Swift
    /// prints them; a non-finite value has no JSON form.
    fileprivate static func number(_ value: Double) throws -> JSONNode {
        guard value.isFinite else { throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "not a finite number")) }
        if value.rounded() == value, abs(value) < 1e16 {
            return .number(value.sign == .minus && value == 0 ? "-0" : String(Int64(value)))
        }
        return .number(value.description)
    }
}

/// A value on its way to JSON. Objects and arrays are boxes, so a container can fill them after
/// handing them to its parent.
private enum JSONNode {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array(JSONArrayBox)
    case object(JSONObjectBox)
    /// What a super-encoder encodes, read when the line is written.
    case deferred(NodeEncoder)
}

private final class JSONArrayBox {
    var elements: [JSONNode] = []
}

private final class JSONObjectBox {
    var entries: [(key: String, value: JSONNode)] = []
}

/// The `Encoder` a value encodes itself into; `result` is what it encoded.
private final class NodeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var node: JSONNode?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    /// An Encodable that encoded nothing is an empty object, as in Foundation.
    var result: JSONNode { node ?? .object(JSONObjectBox()) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case let .object(object)? = node { return KeyedEncodingContainer(KeyedNodeContainer(object: object, codingPath: codingPath)) }
        let object = JSONObjectBox()
        node = .object(object)
        return KeyedEncodingContainer(KeyedNodeContainer(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case let .array(array)? = node { return UnkeyedNodeContainer(array: array, codingPath: codingPath) }
        let array = JSONArrayBox()
        node = .array(array)
        return UnkeyedNodeContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(encoder: self) }

    /// The node for any Encodable: the primitives directly, everything else through its own encode(to:).
    static func node(for value: some Encodable, codingPath: [any CodingKey]) throws -> JSONNode {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let number as Double: return try SortedJSONEncoder.number(number)
        case let number as Float: return try SortedJSONEncoder.number(Double(number))
        default:
            let encoder = NodeEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.result
        }
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONObjectBox
    let codingPath: [any CodingKey]

    private func set(_ node: JSONNode, _ key: Key) { object.entries.append((key.stringValue, node)) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try SortedJSONEncoder.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try SortedJSONEncoder.number(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(String(value)), key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        set(try NodeEncoder.node(for: value, codingPath: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONObjectBox()
        set(.object(nested), key)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONArrayBox()
        set(.array(nested), key)
        return UnkeyedNodeContainer(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = NodeEncoder(codingPath: codingPath)
        object.entries.append((name, .deferred(encoder)))
        return encoder
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let array: JSONArrayBox
    let codingPath: [any CodingKey]
    var count: Int { array.elements.count }

    mutating func encodeNil() throws { array.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.elements.append(try SortedJSONEncoder.number(value)) }
    mutating func encode(_ value: Float) throws { array.elements.append(try SortedJSONEncoder.number(Double(value))) }
    mutating func encode(_ value: Int) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { array.elements.append(.number(String(value))) }

    mutating func encode(_ value: some Encodable) throws {
        array.elements.append(try NodeEncoder.node(for: value, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONObjectBox()
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(object: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONArrayBox()
        array.elements.append(.array(nested))
        return UnkeyedNodeContainer(array: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = NodeEncoder(codingPath: codingPath)
        array.elements.append(.deferred(encoder))
        return encoder
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node = .null }
    mutating func encode(_ value: Bool) throws { encoder.node = .bool(value) }
    mutating func encode(_ value: String) throws { encoder.node = .string(value) }
    mutating func encode(_ value: Double) throws { encoder.node = try SortedJSONEncoder.number(value) }
    mutating func encode(_ value: Float) throws { encoder.node = try SortedJSONEncoder.number(Double(value)) }
    mutating func encode(_ value: Int) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: Int8) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: Int16) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: Int32) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: UInt) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.node = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.node = .number(String(value)) }

    mutating func encode(_ value: some Encodable) throws {
        encoder.node = try NodeEncoder.node(for: value, codingPath: encoder.codingPath)
    }
}
