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
        for pattern in patterns where !cases.contains(where: { Self.matches($0.id, pattern) }) {
            throw .patternMatchesNothing(pattern)
        }
        let selected = cases.filter { item in
            (patterns.isEmpty || patterns.contains { Self.matches(item.id, $0) }) && (levels.isEmpty || levels.contains(item.level))
        }
        if selected.isEmpty { throw .nothingSelected }
        return selected
    }

    /// Whether `id` matches `pattern`, where `*` stands for any run of characters.
    static func matches(_ id: String, _ pattern: String) -> Bool {
        let text = Array(id)
        let pattern = Array(pattern)
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
        case let .patternMatchesNothing(pattern): "--case \(pattern) matches no case (decaf conform list shows them)"
        case .nothingSelected: "the filters together select no case"
        }
    }
}
