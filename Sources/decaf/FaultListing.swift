import DecafWire

/// A line of a testee's `--list-faults`: the fault's name, the requirements it breaks, and what it
/// does, in columns.
enum FaultListing {
    static func line(name: String, breaks: [RequirementID], summary: String) -> String {
        let requirements = breaks.isEmpty ? "(no MUST)" : breaks.map(\.rawValue).joined(separator: ",")
        return "\(name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(requirements.padding(toLength: 10, withPad: " ", startingAt: 0)) \(summary)"
    }
}
