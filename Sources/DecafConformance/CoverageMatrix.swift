import DecafWire

/// For each requirement and each role, the cases that check it and at which level, from the three
/// catalogs; and what is wrong with that: a MUST with no required case in a role it binds (a
/// defect every required case would let through), and a required case that checks no MUST of its
/// role (a failure the spec does not justify). Both lists are empty for Decaf's own catalogs, which
/// a test keeps true.
public struct CoverageMatrix: Sendable {
    /// One cell: a requirement in one role.
    public struct Cell: Sendable {
        public var obligation: Obligation?
        /// The cases of the role's suite that name the requirement, with their levels.
        public var cases: [(id: String, level: ConformanceLevel)]

        /// How many cases at each level, required first: `3 required, 1 recommended`.
        public var counts: String {
            let parts = ConformanceLevel.allCases.compactMap { level -> String? in
                let count = cases.count { $0.level == level }
                return count == 0 ? nil : "\(count) \(level.rawValue)"
            }
            return parts.isEmpty ? "no case" : parts.joined(separator: ", ")
        }

        /// A MUST that no required case checks.
        public var isGap: Bool { obligation == .must && !cases.contains { $0.level == .required } }
    }

    /// A required case whose requirements hold no MUST for its role.
    public struct Overreach: Sendable, Hashable {
        public var role: ConformanceRole
        public var id: String
        public var requirements: [RequirementID]
    }

    public let cells: [RequirementID: [ConformanceRole: Cell]]
    public let overreaches: [Overreach]

    /// The matrix of the given catalogs; by default Decaf's own, the server's with its default profile.
    public init(catalogs: [ConformanceRole: [ConformanceCase]] = CoverageMatrix.catalogs) {
        var cells: [RequirementID: [ConformanceRole: Cell]] = [:]
        var overreaches: [Overreach] = []
        for requirement in RequirementID.allCases {
            for role in ConformanceRole.allCases {
                let cases = (catalogs[role] ?? []).filter { $0.requirements.contains(requirement) }.map { (id: $0.id, level: $0.level) }
                cells[requirement, default: [:]][role] = Cell(obligation: requirement.obligation(for: role), cases: cases)
            }
        }
        for role in ConformanceRole.allCases {
            for item in catalogs[role] ?? [] where item.level == .required && !item.requirements.contains(where: { $0.obligation(for: role) == .must }) {
                overreaches.append(Overreach(role: role, id: item.id, requirements: item.requirements))
            }
        }
        self.cells = cells
        self.overreaches = overreaches
    }

    /// Decaf's catalogs: the server suite's, the client suite's and the codec suite's.
    public static var catalogs: [ConformanceRole: [ConformanceCase]] {
        [.server: ConformanceCatalog().cases, .client: ClientCatalog.cases.map(\.conformanceCase), .codec: CodecCase.all.map(\.conformanceCase)]
    }

    /// The cell of `requirement` in `role`.
    public func cell(_ requirement: RequirementID, _ role: ConformanceRole) -> Cell {
        cells[requirement]?[role] ?? Cell(obligation: nil, cases: [])
    }

    /// Every MUST that no required case checks, by requirement then role.
    public var gaps: [(requirement: RequirementID, role: ConformanceRole)] {
        RequirementID.allCases.flatMap { requirement in
            ConformanceRole.allCases.filter { cell(requirement, $0).isGap }.map { (requirement, $0) }
        }
    }

    /// The matrix as text: a row per requirement, a column per role (`MUST  3 required`), then,
    /// when `passive` is given, a column of the ends a capture's monitor judges it for; then the
    /// gaps and overreaches, or a line saying there are none. With `listingCases`, each cell's
    /// cases follow its row.
    public func text(listingCases: Bool = false, passive: [RequirementID: [String]]? = nil) -> String {
        let rows = RequirementID.allCases.map { requirement in
            ConformanceRole.allCases.map { role -> String in
                let cell = cell(requirement, role)
                let text = cell.obligation.map { "\($0.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))\(cell.counts)" }
                    ?? (cell.cases.isEmpty ? "-" : "-      \(cell.counts)")
                return (cell.isGap ? "!" : "") + text
            }
        }
        // Every cell whole: a column as wide as its widest cell, and two spaces.
        let width = max(36, (rows.flatMap { $0 }.map(\.count).max() ?? 0) + 2)
        var out = ("requirement  " + ConformanceRole.allCases.map { $0.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) }.joined()
            + (passive == nil ? "" : "monitor")).trimmingTrailingSpaces() + "\n"
        for (requirement, columns) in zip(RequirementID.allCases, rows) {
            let monitored = passive.map { $0[requirement].map { $0.joined(separator: ", ") } ?? "-" } ?? ""
            out += (requirement.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                + columns.map { $0.padding(toLength: width, withPad: " ", startingAt: 0) }.joined() + monitored).trimmingTrailingSpaces() + "\n"
            if listingCases {
                for role in ConformanceRole.allCases where !cell(requirement, role).cases.isEmpty {
                    out += "    \(role.rawValue): " + cell(requirement, role).cases.map { "\($0.id) [\($0.level.rawValue)]" }.joined(separator: ", ") + "\n"
                }
            }
        }
        out += "\n"
        let gaps = gaps
        out += gaps.isEmpty ? "Every MUST is checked by a required case in each role it binds.\n"
            : gaps.map { "! \($0.requirement.rawValue) is a MUST for a \($0.role.rawValue) that no required case checks\n" }.joined()
        out += overreaches.isEmpty ? "Every required case checks a MUST of its role.\n"
            : overreaches.map { "! \($0.role.rawValue) case \($0.id) is required but checks no MUST of its role (\($0.requirements.map(\.rawValue).joined(separator: ", ")))\n" }.joined()
        return out
    }
}

extension String {
    /// The string without the spaces at its end.
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
