import DecafWire

/// What the monitor found one end of a connection did about one requirement: it broke it (with
/// the frames that show it), or the capture cannot say (a gap, a stream joined mid-way, a capture
/// that ends first). What an end did right is counted, not listed (`MonitorTally`).
public struct MonitorVerdict: Sendable, Hashable, Encodable {
    /// How binding the requirement is, in conform's words: a required one checks a MUST and
    /// fails the run, a recommended one a SHOULD.
    public enum Level: String, Sendable, Hashable, Codable {
        case required
        case recommended
    }

    public enum Outcome: String, Sendable, Hashable, Codable {
        case fail
        case notJudged = "not-judged"
    }

    /// The connection's index in the capture.
    public var connection: Int
    public var end: MonitorEnd
    public var requirement: RequirementID
    public var level: Level
    public var outcome: Outcome
    /// What the end did, named the same for every frame the same mistake shows in
    /// (`ack-never-sent`, `ack-missing`, ...): a report says each cause once.
    public var cause: String
    /// One line, in the protocol's words: what the end did, or why it is not judged.
    public var message: String
    /// The frames that show it, first the one the rule is about.
    public var evidence: [MonitorEvidence]

    public init(connection: Int, end: MonitorEnd, requirement: RequirementID, level: Level = .required, outcome: Outcome,
                cause: String, message: String, evidence: [MonitorEvidence]) {
        self.connection = connection
        self.end = end
        self.requirement = requirement
        self.level = level
        self.outcome = outcome
        self.cause = cause
        self.message = message
        self.evidence = evidence
    }
}
