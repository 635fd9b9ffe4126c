import DecafWire

/// Something worth telling about a frame that a receiver would still accept.
public struct DissectionWarning: Hashable, Sendable {
    public var requirement: RequirementID
    public var message: String

    public init(_ requirement: RequirementID, _ message: String) {
        self.requirement = requirement
        self.message = message
    }
}
