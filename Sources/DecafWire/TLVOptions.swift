/// How strictly a TLV body is parsed (TLV-2, TLV-3).
public struct TLVOptions: Hashable, Sendable {
    /// The deepest nesting level whose fields are parsed: the top-level sequence is depth 0 and a
    /// container's value is parsed at its depth + 1. The brief's default 4 accepts four nested
    /// containers and rejects five.
    public var depthLimit: Int
    /// Whether a tag may repeat within one sequence. Order is preserved either way.
    public var allowsDuplicateTags: Bool
    /// Whether a container whose value would be parsed beyond the limit is taken when that value
    /// is empty: no field is then too deep (TLV-2, interpretation 3, a receiver's choice:
    /// `ReceiverChoice.emptyContainerPastLimit`). A container past the limit that holds fields is
    /// refused at its own tag either way.
    public var acceptsEmptyContainerPastLimit = false

    /// The largest depth limit accepted; larger values are clamped so parsing stays on a small,
    /// bounded stack.
    public static let maximumDepthLimit = 255

    /// Options with the brief's defaults: four levels of containers, no tag twice in one sequence.
    public init(depthLimit: Int = 4, allowsDuplicateTags: Bool = false) {
        self.depthLimit = depthLimit
        self.allowsDuplicateTags = allowsDuplicateTags
    }

    var effectiveDepthLimit: Int { min(max(depthLimit, 0), Self.maximumDepthLimit) }
}
