import DecafWire

/// That one end of a connection broke one requirement, with the frames that show it. What an end
/// did right, and what the capture could not show, are counted, not listed (`MonitorTally`).
public struct MonitorVerdict: Sendable, Hashable, Encodable {
    /// How binding the requirement is, in conform's words: a required one checks a MUST and
    /// fails the run, a recommended one a SHOULD.
    public enum Level: String, Sendable, Hashable, Codable {
        case required
        case recommended
    }

    /// The connection's index in the capture.
    public var connection: Int
    public var end: MonitorEnd
    public var requirement: RequirementID
    public var level: Level
    /// What the end did, named the same for every frame the same mistake shows in
    /// (`ack-never-sent`, `ack-missing`, ...): a report says each cause once.
    public var cause: String
    /// One line, in the protocol's words: what the end did.
    public var message: String
    /// The frames that show it, first the one the rule is about.
    public var evidence: [MonitorEvidence]

    public init(connection: Int, end: MonitorEnd, requirement: RequirementID, level: Level = .required,
                cause: String, message: String, evidence: [MonitorEvidence]) {
        self.connection = connection
        self.end = end
        self.requirement = requirement
        self.level = level
        self.cause = cause
        self.message = message
        self.evidence = evidence
    }
}
