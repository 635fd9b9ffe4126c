import DecafWire

/// A testee's `--list-faults`: each fault's name, the requirements it breaks, and what it does,
/// in columns as wide as their widest entry, so nothing a user copies from is ever cut.
enum FaultListing {
    /// The lines for `faults`, each given as its name, the requirements it breaks and its summary.
    static func lines(_ faults: [(name: String, breaks: [RequirementID], summary: String)]) -> [String] {
        let rows = faults.map { fault in
            (fault.name, fault.breaks.isEmpty ? "(no MUST)" : fault.breaks.map(\.rawValue).joined(separator: ","), fault.summary)
        }
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let requirementWidth = rows.map(\.1.count).max() ?? 0
        return rows.map { name, requirements, summary in
            "\(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  \(requirements.padding(toLength: requirementWidth, withPad: " ", startingAt: 0))  \(summary)"
        }
    }
}
