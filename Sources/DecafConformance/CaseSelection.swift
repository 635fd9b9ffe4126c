/// Which cases a run takes: by ID pattern (`*` matches any run of characters) and by level.
/// A pattern that matches nothing is an error, so a mistyped filter never passes by running nothing.
public struct CaseSelection: Hashable, Sendable {
    public var patterns: [String]
    public var levels: Set<ConformanceLevel>

    public init(patterns: [String] = [], levels: Set<ConformanceLevel> = []) {
        self.patterns = patterns
        self.levels = levels
    }

    /// The selected cases, in catalog order.
    public func apply(to cases: [ConformanceCase]) throws(SelectionError) -> [ConformanceCase] {
        let compiled = patterns.map { (text: $0, symbols: Array($0), literals: $0.count(where: { $0 != "*" })) }
        let ids = cases.map { Array($0.id) }
        for pattern in compiled where !ids.contains(where: { Self.matches($0, pattern.symbols, literals: pattern.literals) }) {
            throw .patternMatchesNothing(pattern.text)
        }
        let selected = zip(cases, ids).filter { item, id in
            (compiled.isEmpty || compiled.contains { Self.matches(id, $0.symbols, literals: $0.literals) }) && (levels.isEmpty || levels.contains(item.level))
        }.map(\.0)
        if selected.isEmpty { throw .nothingSelected }
        return selected
    }

    /// Whether `id` matches `pattern`, where `*` stands for any run of characters.
    static func matches(_ id: String, _ pattern: String) -> Bool {
        matches(Array(id), Array(pattern), literals: pattern.count(where: { $0 != "*" }))
    }

    /// `literals`: the pattern's characters other than `*`, each of which matches one of the ID's,
    /// so a pattern with more of them than the ID has characters cannot match.
    private static func matches(_ text: [Character], _ pattern: [Character], literals: Int) -> Bool {
        guard literals <= text.count else { return false }
        // reachable[i]: the pattern read so far can match the first i characters of the ID.
        var reachable = [true] + Array(repeating: false, count: text.count)
        for symbol in pattern {
            if symbol == "*" {
                for index in 1..<reachable.count where reachable[index - 1] { reachable[index] = true }
            } else {
                for index in stride(from: text.count, through: 1, by: -1) {
                    reachable[index] = reachable[index - 1] && text[index - 1] == symbol
                }
                reachable[0] = false
            }
        }
        return reachable[text.count]
    }
}

/// Why a selection is refused.
public enum SelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    case patternMatchesNothing(String)
    case nothingSelected

    public var description: String {
        switch self {
        case let .patternMatchesNothing(pattern):
            "--case \(pattern.count > 60 ? "\(pattern.prefix(40))… (\(pattern.count) characters)" : pattern) matches no case (decaf conform list shows them)"
        case .nothingSelected: "the filters together select no case"
        }
    }
}
