import DecafSession

/// The toxics by name, derived from `Toxic.kinds`: how a type and its attributes (from the command
/// line or a timeline file) make a `Toxic`, and the type name and attributes of a toxic, as the
/// command line, timeline files and the control API use them.
public enum ToxicCatalog {
    public typealias Problem = ToxicProblem

    public static let types = Toxic.kinds.map { $0.type }

    /// The types, as a message lists them: `latency, bandwidth, ... or cut_frames`.
    public static let typeList = Toxic.typeList

    /// The attribute `TYPE=VALUE` sets on the command line.
    public static let mainAttribute = Dictionary(uniqueKeysWithValues: Toxic.kinds.compactMap { kind in kind.mainAttribute.map { (kind.type, $0) } })

    /// The toxic of `type` with `attributes`; every attribute must be one the type has. Durations
    /// without a unit count `bareUnit` seconds, or are refused when it is nil (the command line).
    /// `lenient` reads them as toxiproxy's API does: a missing attribute is zero, an unknown one
    /// is ignored.
    public static func toxic(type: String, attributes: [String: String], bareUnit: Double? = nil, lenient: Bool = false) throws(Problem) -> Toxic {
        try Toxic(type: type, ToxicAttributes(type: type, attributes, bareUnit: bareUnit, lenient: lenient))
    }

    /// The attributes of `toxic` in toxiproxy's units (milliseconds, the slicer's delay in
    /// microseconds, KB/s), as the control API shows them; `toxic(type:attributes:)` reads them back.
    static func attributes(of toxic: Toxic) -> [String: ToxicAttributeValue] { toxic.kind.attributes }

    /// The type name of `toxic`.
    public static func type(of toxic: Toxic) -> String { toxic.type }
}
