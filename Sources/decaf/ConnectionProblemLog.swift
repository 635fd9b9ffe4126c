import DecafDissect
import NIOConcurrencyHelpers

/// Why connection attempts fail, said on standard error while a client keeps trying (or a proxy
/// keeps serving): each reason the first time it comes, never the same line again, also when two
/// reasons take turns (a server that closes at once is seen to reset one attempt and close the next).
final class ConnectionProblemLog: Sendable {
    private struct State {
        var last: String?
        /// Every reason said so far.
        var said: Set<String> = []
        /// Attempts since the last line said.
        var repeats = 0
        var count = 0
    }

    private let state = NIOLockedValueBox(State())
    /// What each line ends with: what is done about the problem.
    private let suffix: String

    init(suffix: String = "; still trying") {
        self.suffix = suffix
    }

    /// The latest reason heard, if any.
    var last: String? { state.withLockedValue { $0.last } }

    /// How many attempts failed.
    var count: Int { state.withLockedValue { $0.count } }

    @Sendable func note(_ reason: String) {
        let line: String? = state.withLockedValue { state in
            state.count += 1
            state.last = reason
            guard state.said.insert(reason).inserted else {
                state.repeats += 1
                return nil
            }
            let before = state.repeats > 0 ? " (after \(state.repeats) more attempt(s) failing as said before)" : ""
            state.repeats = 0
            return "\(reason)\(suffix)\(before)"
        }
        if let line { FileHandleOutput.standardError.write(line + "\n") }
    }
}
