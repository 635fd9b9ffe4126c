/// Expected failures: a file of case IDs, one per line (`#` starts a comment), for a target that is
/// known not to pass them yet. Only unexpected results fail a run.
public struct Baseline: Hashable, Sendable {
    public var caseIDs: [String]

    public init(caseIDs: [String]) { self.caseIDs = caseIDs }

    /// Parses the file's text.
    public init(text: String) {
        caseIDs = text.split(whereSeparator: \.isNewline).compactMap { line in
            let id = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces)
            return id.isEmpty ? nil : id
        }
    }

    /// The file for `run`: every failing case, so a team can start from where its target is.
    public static func text(for run: ConformanceRun) -> String {
        let failing = run.results.filter { $0.verdict.kind.isFailure }.map(\.testCase.id)
        return "# expected failures of \(run.target), \(run.suiteVersion), catalog \(run.catalogChecksum)\n"
            + failing.map { $0 + "\n" }.joined()
    }

    /// What became of the baseline in `results`.
    public func compare(with results: [CaseResult], knownIDs: Set<String>) -> BaselineComparison {
        let byID = Dictionary(results.map { ($0.testCase.id, $0) }, uniquingKeysWith: { first, _ in first })
        var comparison = BaselineComparison(expected: Set(caseIDs))
        for id in caseIDs {
            if !knownIDs.contains(id) {
                comparison.unknown.append(id)
            } else if let result = byID[id], result.verdict.kind.isPass {
                comparison.nowPassing.append(id)
            }
        }
        return comparison
    }
}

/// A baseline checked against a run: entries that now pass and entries that name no case are
/// stale, and are reported so the baseline can be trimmed.
public struct BaselineComparison: Hashable, Sendable {
    public var expected: Set<String>
    public var nowPassing: [String] = []
    public var unknown: [String] = []

    public func expects(_ id: String) -> Bool { expected.contains(id) }
}
