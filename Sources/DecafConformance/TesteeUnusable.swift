/// A testee that never answered, or never did anything a case could judge: the run stops, since no
/// verdict would be about the implementation.
public struct TesteeUnusable: Error, CustomStringConvertible {
    public let command: [String]
    public let reason: String
    /// The protocol the testee should speak, to try it by hand.
    public var protocolFile: String

    /// `reason` says what the testee did; a leading "the testee " is dropped, since the
    /// description names it.
    package init(command: [String], reason: String, protocolFile: String = "Specs/conform-testee.md") {
        self.command = command
        self.reason = reason.hasPrefix("the testee ") ? String(reason.dropFirst("the testee ".count)) : reason
        self.protocolFile = protocolFile
    }

    public var description: String {
        "the testee `\(command.joined(separator: " "))` \(reason); check the command after --, and try it by hand as \(protocolFile) describes"
    }
}
