/// ERROR TLV: what a receiver sends before it closes on a fatal error (EX-5): a u16 code from
/// the brief's table, then a UTF-8 reason.
public struct ErrorReport: Hashable, Sendable {
    /// The code as sent; `ErrorCode(rawValue:)` names it when the brief defines it.
    public var code: UInt16
    /// The UTF-8 reason after the code: for a person, never parsed.
    public var reason: String

    /// A report of error `code` (section 8) with `reason`.
    public init(code: UInt16, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The report a receiver sends for `error`.
    public init(_ error: WireError) {
        self.init(code: error.code.rawValue, reason: error.description)
    }

    /// The report in `value`, or nil if it is shorter than 2 bytes or the reason is not UTF-8.
    public init?(value: some Collection<UInt8>) {
        guard value.count >= 2 else { return nil }
        let bytes = Array(value)
        guard let reason = String(validating: bytes[2...], as: UTF8.self) else { return nil }
        self.init(code: UInt16(bytes[0]) << 8 | UInt16(bytes[1]), reason: reason)
    }

    /// The ERROR TLV's value: the code as a big-endian u16, then the reason's UTF-8 bytes.
    public var value: [UInt8] {
        var out: [UInt8] = []
        out.appendBigEndian(code)
        out.append(contentsOf: reason.utf8)
        return out
    }

    /// The report as an ERROR field, ready for a body.
    public var field: TLVField { TLVField(tag: .error, bytes: value) }
}
