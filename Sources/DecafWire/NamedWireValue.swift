/// A header field whose values the brief names but whose unknown values must stay representable
/// (msg_type, encrypt_type, compress_type, sequence category): one place for name lookup.
public protocol NamedWireValue: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue: FixedWidthInteger {
    init(rawValue: RawValue)
    /// The values the brief defines.
    static var known: [Self] { get }
    /// The brief's name for this value, or nil when the brief does not define it.
    var name: String? { get }
}

extension NamedWireValue {
    public var isKnown: Bool { name != nil }

    /// The value the brief names `name` (e.g. `DATA`), or nil.
    public init?(name: String) {
        guard let value = Self.known.first(where: { $0.name == name }) else { return nil }
        self = value
    }

    public var description: String { name ?? "UNKNOWN(\(rawValue))" }
}
