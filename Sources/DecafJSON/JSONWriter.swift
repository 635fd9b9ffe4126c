import DecafWire

/// Writes JSON straight into an output buffer, with the keys of each object in the order they are
/// given, which must be sorted (debug builds check it), and strings escaped as Foundation escapes
/// them (slashes left alone). `--json` writes a record per frame this way, so the writer's cost is
/// most of what `--json` costs.
public struct JSONWriter {
    public let out: OutputBuffer
    /// Whether the next key or element needs a comma before it.
    @usableFromInline var needsComma = false
    #if DEBUG
    /// The last key of each object being written, innermost last.
    @usableFromInline var lastKeys: [String] = []
    #endif

    @inlinable
    public init(into out: OutputBuffer) {
        self.out = out
    }

    @inlinable
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    @inlinable
    public mutating func array<Elements: Sequence>(_ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void) {
        beginArray()
        for each in elements { element(&self, each) }
        endArray()
    }

    /// Opens an object, for a writer whose members come from several calls (a walk over a
    /// frame's fields); `endObject` closes it.
    @inlinable
    public mutating func beginObject() {
        separate()
        out.append(UInt8(ascii: "{"))
        needsComma = false
        #if DEBUG
        lastKeys.append("")
        #endif
    }

    @inlinable
    public mutating func endObject() {
        #if DEBUG
        lastKeys.removeLast()
        #endif
        out.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array whose elements come from several calls; `endArray` closes it.
    @inlinable
    public mutating func beginArray() {
        separate()
        out.append(UInt8(ascii: "["))
        needsComma = false
    }

    @inlinable
    public mutating func endArray() {
        out.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Starts the member `name`; its value follows.
    @inlinable @inline(__always)
    public mutating func key(_ name: StaticString) {
        #if DEBUG
        let text = name.description
        assert(lastKeys.last.map { $0.utf8.lexicographicallyPrecedes(text.utf8) } ?? true, "JSON key \(text) is out of sorted order")
        if !lastKeys.isEmpty { lastKeys[lastKeys.count - 1] = text }
        #endif
        out.appendKey(name, separated: needsComma)
        needsComma = false
    }

    @inlinable
    public mutating func string(_ text: String) {
        separate()
        Self.appendString(text, to: out)
        needsComma = true
    }

    /// `utf8`, which the caller has found to be well-formed UTF-8, as a JSON string.
    @inlinable
    public mutating func text(_ utf8: UnsafeRawBufferPointer) {
        separate()
        Self.appendString(utf8.assumingMemoryBound(to: UInt8.self), to: out)
        needsComma = true
    }

    /// An integer in decimal.
    @inlinable @inline(__always)
    public mutating func number(_ value: some BinaryInteger) {
        separate()
        out.appendDecimal(value)
        needsComma = true
    }

    @inlinable
    public mutating func bool(_ value: Bool) {
        separate()
        out.append(value ? "true" : "false")
        needsComma = true
    }

    /// A value already written as JSON, such as a string quoted by `quoted`.
    @inlinable
    public mutating func raw(_ value: [UInt8]) {
        separate()
        out.append(value)
        needsComma = true
    }

    /// `value` as a string of lower-case hex digits.
    @inlinable
    public mutating func hex(_ value: UnsafeRawBufferPointer) {
        separate()
        out.append(UInt8(ascii: "\""))
        out.appendHex(value)
        out.append(UInt8(ascii: "\""))
        needsComma = true
    }

    @inlinable
    public mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    @inlinable @inline(__always)
    public mutating func member(_ name: StaticString, _ value: some BinaryInteger) {
        key(name)
        number(value)
    }

    @inlinable
    public mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// A member whose value is one of the protocol's names (`DATA`, `client-to-server`, `ok`),
    /// which never need escaping; left out when nil.
    @inlinable @inline(__always)
    public mutating func member(_ key: StaticString, name: String?) {
        guard let name else { return }
        quotedMember(key) { $0.append(name) }
    }

    /// The same, for a name that is static text (`BriefNamedWireValue.briefName`).
    @inlinable @inline(__always)
    public mutating func member(_ key: StaticString, name: StaticString?) {
        guard let name else { return }
        quotedMember(key) { $0.append(name) }
    }

    /// The same, for a name given as its UTF-8 bytes (a TLV field's, from its registry).
    @inlinable
    public mutating func member(_ key: StaticString, name: UnsafeRawBufferPointer?) {
        guard let name else { return }
        quotedMember(key) { $0.append(name) }
    }

    /// `"key":"…"`, with `write` writing what lies between the second pair of quotes.
    @inlinable @inline(__always)
    mutating func quotedMember(_ key: StaticString, _ write: (OutputBuffer) -> Void) {
        self.key(key)
        out.append(UInt8(ascii: "\""))
        write(out)
        out.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A member left out when its value is nil, as synthesized `Encodable` does.
    @inlinable
    public mutating func member(_ name: StaticString, _ value: String?) {
        if let value { member(name, value) }
    }

    @inlinable
    public mutating func member<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer?) {
        if let value { member(name, value) }
    }

    /// `text` as a JSON string, quoted and escaped, for writing later with `raw`.
    public static func quoted(_ text: String) -> [UInt8] {
        let out = OutputBuffer(capacity: text.utf8.count + 16)
        appendString(text, to: out)
        return Array(out.bytes)
    }

    /// `text` as a JSON string, escaped as Foundation escapes it.
    public static func appendString(_ text: String, to out: OutputBuffer) {
        var text = text
        text.withUTF8 { appendString($0, to: out) }
    }

    @inlinable @inline(__always)
    mutating func separate() {
        if needsComma { out.append(UInt8(ascii: ",")) }
    }

    /// Whether `byte` cannot stand in a JSON string as it is.
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Well-formed UTF-8 `bytes` as a JSON string, escaped as Foundation escapes it.
    public static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, to out: OutputBuffer) {
        out.append(UInt8(ascii: "\""))
        var plainStart = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none of them needs escaping: most text needs none.
            if index + 8 <= bytes.count, !mayNeedEscape(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = bytes[index]
            defer { index += 1 }
            guard needsEscape(byte) else { continue }
            out.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[plainStart..<index])))
            plainStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): out.append(#"\""#)
            case UInt8(ascii: "\\"): out.append(#"\\"#)
            case 0x0A: out.append(#"\n"#)
            case 0x0D: out.append(#"\r"#)
            case 0x09: out.append(#"\t"#)
            case 0x08: out.append(#"\b"#)
            case 0x0C: out.append(#"\f"#)
            default:
                out.append(#"\u00"#)
                withUnsafeBytes(of: byte) { out.appendHex($0) }
            }
        }
        out.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[plainStart...])))
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes in `word` may need escaping: one is below 0x20, or is a
    /// quote or a backslash (the classic test for a zero byte, applied three ways).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highs != 0
        return control || hasZeroByte(word ^ 0x2222_2222_2222_2222) || hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
    }
}
