import NIOConcurrencyHelpers

/// Why connection attempts fail, said on standard error while a client keeps trying (or a proxy
/// keeps serving): the first reason, then each time the reason changes, never the same line over
/// and over.
final class ConnectionProblemLog: Sendable {
    private let state = NIOLockedValueBox<(first: String?, last: String?, repeats: Int, count: Int)>((nil, nil, 0, 0))
    /// What each line ends with: what is done about the problem.
    private let suffix: String

    init(suffix: String = "; still trying") {
        self.suffix = suffix
    }

    /// The first reason heard, if any.
    var first: String? { state.withLockedValue { $0.first } }

    /// The latest reason heard, if any.
    var last: String? { state.withLockedValue { $0.last } }

    /// How many attempts failed.
    var count: Int { state.withLockedValue { $0.count } }

    @Sendable func note(_ reason: String) {
        let line: String? = state.withLockedValue { state in
            state.first = state.first ?? reason
            state.count += 1
            guard reason != state.last else {
                state.repeats += 1
                return nil
            }
            let before = state.repeats > 0 ? " (and \(state.repeats) more attempt(s) like the last)" : ""
            state.last = reason
            state.repeats = 0
            return "\(reason)\(suffix)\(before)"
        }
        if let line { FileHandleOutput.standardError.write(line + "\n") }
    }
}
