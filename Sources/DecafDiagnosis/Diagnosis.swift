/// What a run's failures come down to: the smallest set of catalogued mistakes whose model
/// answers as the implementation did, each a defect, and the failures none explains. A failure
/// is explained only when the model gives the very verdict the implementation got; a mistake
/// whose model would fail a case the implementation passed is never named.
public struct Diagnosis: Hashable, Sendable {
    /// The defects, in the catalog's order.
    public var defects: [Defect]
    /// How many cases failed (or timed out).
    public var failures: Int
    /// The failing cases no defect explains, in the run's order.
    public var unexplained: [String]

    /// A diagnosis naming `defects`, of `failures` failures, `unexplained` left over.
    public init(defects: [Defect], failures: Int, unexplained: [String]) {
        self.defects = defects
        self.failures = failures
        self.unexplained = unexplained
    }

    /// How many failures the defects explain.
    public var explained: Int { failures - unexplained.count }

    /// "2 defects explain 115 of 128 failures", the line a report opens with.
    public var headline: String {
        let plural = failures == 1 ? "" : "s"
        guard !defects.isEmpty else { return "no catalogued defect explains the \(failures) failure\(plural)" }
        let count = defects.count == 1 ? "1 defect explains" : "\(defects.count) defects explain"
        return "\(count) \(explained) of \(failures) failure\(plural)"
    }

    /// Every failing case a defect explains.
    public var explainedCases: Set<String> { Set(defects.flatMap(\.explains)) }

    /// Which defect explains `caseID`, if one does.
    public func defect(explaining caseID: String) -> Defect? {
        defects.first { $0.explains.contains(caseID) }
    }
}
