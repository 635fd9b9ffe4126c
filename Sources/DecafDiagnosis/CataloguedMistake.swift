import DecafWire

/// A mistake of the catalog a diagnosis draws on, in any role: a codec mistake, a fault of the
/// reference peer or of the reference client. What a report says of the defect it names.
public protocol CataloguedMistake: Hashable, Sendable {
    /// The name that plants it (`--mistake`, `--fault`) and that reports show.
    var name: String { get }
    /// The defect in one sentence.
    var cause: String { get }
    /// What to change, in one line.
    var fix: String { get }
    /// The requirements an implementation with this mistake breaks.
    var breaks: [RequirementID] { get }
}

extension CodecMistake: CataloguedMistake {}
