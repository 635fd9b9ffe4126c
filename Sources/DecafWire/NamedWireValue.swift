/// A protocol value the brief names, whose unknown values must stay representable so they can be
/// shown and checked (msg_type, encrypt_type, compress_type, sequence category, TLV tag).
public protocol NamedWireValue: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue: FixedWidthInteger {
    init(rawValue: RawValue)
    /// The brief's name for this value, or nil when the brief does not define it.
    var name: String? { get }
}

extension NamedWireValue {
    public var isKnown: Bool { name != nil }

    public var description: String { name ?? "UNKNOWN(\(rawValue))" }
}
