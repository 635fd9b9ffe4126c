import DecafWire

/// One defect of an implementation, named once: the mistake that causes it, the requirements it
/// breaks, the fix, the failures it explains and the shortest of them as evidence.
public struct Defect: Hashable, Sendable {
    /// The mistake's name in the catalog (`checksum-little-endian`), as `--mistake` plants it.
    public var name: String
    /// The cause in one sentence: "reads and writes the checksum in host byte order (little-endian)".
    public var cause: String
    /// The requirements it breaks.
    public var requirements: [RequirementID]
    /// What to change, in one line.
    public var fix: String
    /// The failing cases it explains, in the run's order.
    public var explains: [String]
    /// The explained failure with the shortest input: what the brief answers and what came.
    public var evidence: Evidence

    /// The shortest input among the failures a defect explains, with what the brief expects of it
    /// and what came.
    public struct Evidence: Hashable, Sendable {
        /// The case (or finding) it is.
        public var caseID: String
        /// The input's size: the bytes to decode, or the payload to encode.
        public var bytes: Int
        /// What the brief expects.
        public var expected: String
        /// What the implementation did.
        public var actual: String

        /// Evidence of `caseID`, an input of `bytes` bytes.
        public init(caseID: String, bytes: Int, expected: String, actual: String) {
            self.caseID = caseID
            self.bytes = bytes
            self.expected = expected
            self.actual = actual
        }
    }

    /// A defect of mistake `name`.
    public init(name: String, cause: String, requirements: [RequirementID], fix: String, explains: [String], evidence: Evidence) {
        self.name = name
        self.cause = cause
        self.requirements = requirements
        self.fix = fix
        self.explains = explains
        self.evidence = evidence
    }
}
