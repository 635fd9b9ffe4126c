/// A protocol value the brief names, whose unknown values must stay representable so they can be
/// shown and checked (msg_type, encrypt_type, compress_type, sequence category, TLV tag).
public protocol NamedWireValue: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue: FixedWidthInteger {
    /// The value of `rawValue`, whether the brief defines it or not.
    init(rawValue: RawValue)
    /// The brief's name for this value, or nil when the brief does not define it.
    var name: String? { get }
}

extension NamedWireValue {
    /// Whether the brief defines the value.
    public var isKnown: Bool { name != nil }

    /// The brief's name, or `UNKNOWN(n)` for a value it does not define.
    public var description: String { name ?? "UNKNOWN(\(rawValue))" }
}
