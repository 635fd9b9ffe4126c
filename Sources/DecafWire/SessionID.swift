/// The header's session_id: a logical session on the connection (SESSION-1). Replies echo it.
public struct SessionID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The session_id as it travels.
    public var rawValue: UInt16
    /// The session of this u16.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The session id derived from a session UUID: with the dashes removed, the first 8 hex digits
    /// are a u32 `v`, and the id is `(v >> 16) XOR (v & 0xFFFF)`. Nil unless `uuid` is 32 hex
    /// digits once dashes are removed.
    public init?(uuid: String) {
        let digits = uuid.utf8.filter { $0 != UInt8(ascii: "-") }
        guard digits.count == 32, digits.allSatisfy({ $0.isHexDigit }),
              let v = UInt32(String(decoding: digits.prefix(8), as: UTF8.self), radix: 16)
        else { return nil }
        rawValue = UInt16(v >> 16) ^ UInt16(truncatingIfNeeded: v)
    }

    /// `0x444C`: four hex digits.
    public var description: String { Hex.format(rawValue, width: 4) }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
