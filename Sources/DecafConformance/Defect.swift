import DecafWire

/// One defect of an implementation, named once: the mistake that causes it, the requirements it
/// breaks, the fix, the failures it explains and the shortest of them as evidence.
public struct Defect: Hashable, Sendable {
    /// The mistake's name in the catalog (`checksum-little-endian`), as `--mistake` plants it.
    public var name: String
    /// The cause in one sentence: "reads and writes the checksum in host byte order (little-endian)".
    public var cause: String
    public var requirements: [RequirementID]
    public var fix: String
    /// The failing cases it explains, in the run's order.
    public var explains: [String]
    /// The explained failure with the shortest input: what the brief answers and what came.
    public var evidence: Evidence

    public struct Evidence: Hashable, Sendable {
        public var caseID: String
        /// The input's size: the bytes to decode, or the payload to encode.
        public var bytes: Int
        public var expected: String
        public var actual: String
    }
}
