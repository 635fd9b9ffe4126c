import DecafWire

/// Writes JSON straight to bytes, with the keys of each object in the order they are given, which
/// must be sorted (debug builds check it). A record that writes itself with it gives the line
/// `CompactJSONEncoder` gives, without the tree of nodes and the sorting behind it: `--json` writes a
/// record per frame, so the writer's cost is most of what `--json` costs.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next key or element needs a comma before it.
    private var needsComma = false
    #if DEBUG
    /// The last key of each object being written, innermost last.
    private var lastKeys: [String] = []
    #endif

    init() {
        bytes.reserveCapacity(512)
    }

    /// A writer that appends to `bytes`; take them back from `bytes` when done.
    init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        #if DEBUG
        lastKeys.append("")
        #endif
        body(&self)
        #if DEBUG
        lastKeys.removeLast()
        #endif
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Elements: Sequence>(_ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for each in elements { element(&self, each) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Starts the member `name`; its value follows.
    mutating func key(_ name: StaticString) {
        #if DEBUG
        let text = name.description
        assert(lastKeys.last.map { $0.utf8.lexicographicallyPrecedes(text.utf8) } ?? true, "JSON key \(text) is out of sorted order")
        if !lastKeys.isEmpty { lastKeys[lastKeys.count - 1] = text }
        #endif
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ text: String) {
        separate()
        Self.appendString(text, to: &bytes)
        needsComma = true
    }

    /// An integer in decimal, written digit by digit without making a string.
    mutating func number(_ value: some BinaryInteger) {
        separate()
        bytes.appendDecimal(value)
        needsComma = true
    }

    /// A value already written as JSON, such as a string quoted by `quoted`.
    mutating func raw(_ value: [UInt8]) {
        separate()
        bytes.append(contentsOf: value)
        needsComma = true
    }

    /// `value` as a string of lower-case hex digits, written in place.
    mutating func hex(_ value: UnsafeRawBufferPointer) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        Hex.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// `utf8`, which the caller has found to be well-formed UTF-8, as a JSON string.
    mutating func text(_ utf8: UnsafeRawBufferPointer) {
        separate()
        Self.appendString(utf8.assumingMemoryBound(to: UInt8.self), to: &bytes)
        needsComma = true
    }

    /// `text` as a JSON string, quoted and escaped, for writing later with `raw`.
    static func quoted(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        appendString(text, to: &out)
        return out
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    mutating func member(_ name: StaticString, _ value: some BinaryInteger) {
        key(name)
        number(value)
    }

    mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// A member left out when its value is nil, as synthesized `Encodable` does.
    mutating func member(_ name: StaticString, _ value: String?) {
        if let value { member(name, value) }
    }

    mutating func member<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer?) {
        if let value { member(name, value) }
    }

    /// An object member, left out when nil.
    mutating func member(_ name: StaticString, _ value: (some JSONObjectWritable)?) {
        guard let value else { return }
        key(name)
        value.write(to: &self)
    }

    /// An array of objects, left out when nil.
    mutating func member(_ name: StaticString, _ values: [some JSONObjectWritable]?) {
        guard let values else { return }
        key(name)
        array(values) { $1.write(to: &$0) }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Whether `byte` cannot stand in a JSON string as it is.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `text` as a JSON string, escaped as Foundation escapes it (slashes left alone).
    static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString($0, to: &out) }
    }

    /// Well-formed UTF-8 `bytes` as a JSON string, escaped as Foundation escapes it.
    static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var plainStart = 0
        for (index, byte) in bytes.enumerated() where needsEscape(byte) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
            plainStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            default: out += ("\\u00" + Hex.string(CollectionOfOne(byte))).utf8
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart...]))
        out.append(UInt8(ascii: "\""))
    }
}

/// A record that writes its own JSON object with `JSONWriter`; `JSONLine.encode` takes that path.
protocol JSONObjectWritable {
    func write(to writer: inout JSONWriter)
}
