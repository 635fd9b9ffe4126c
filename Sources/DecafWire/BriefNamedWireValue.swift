/// A protocol value whose names the brief fixes (msg_type, encrypt_type, compress_type, sequence
/// category; not a TLV tag, which a registry names). Each name is static text, so an output of
/// millions of frames copies its bytes rather than making a `String` of it for each frame.
public protocol BriefNamedWireValue: NamedWireValue {
    /// The brief's name, or nil when the brief does not define the value.
    var briefName: StaticString? { get }
}

extension BriefNamedWireValue {
    /// The brief's name for the value, or nil for a value the brief does not define.
    public var name: String? { briefName.map(\.description) }

    /// Whether the brief defines the value, read from the static name without making a `String`
    /// (the summary's warnings ask it of every frame).
    @inlinable
    public var isKnown: Bool { briefName != nil }
}
