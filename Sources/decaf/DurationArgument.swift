import DecafSession

/// A length of time on the command line, read as `WrittenDuration` reads it: a bare number counts
/// seconds, the one default unit of every duration option.
enum DurationArgument {
    /// A duration that must be longer than zero: a timeout, an interval, a deadline.
    @Sendable static func positive(_ text: String) throws(ArgumentProblem) -> Duration {
        let duration = try nonNegative(text)
        guard duration > .zero else { throw ArgumentProblem("must be longer than 0; give a duration such as 500ms, 2s or 1m") }
        return duration
    }

    /// A duration that may be zero: a delay.
    @Sendable static func nonNegative(_ text: String) throws(ArgumentProblem) -> Duration {
        do { return try WrittenDuration.parse(text) } catch { throw ArgumentProblem(error.description) }
    }
}
