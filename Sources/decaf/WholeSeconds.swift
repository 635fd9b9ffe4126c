/// A window of whole seconds on the command line, as the protocol counts timestamps (TS-1,
/// REPLAY-1): a duration of at least one second, without a fraction of a second.
enum WholeSeconds {
    @Sendable static func parse(_ text: String) throws(ArgumentProblem) -> UInt32 {
        let duration = try DurationArgument.positive(text)
        let (seconds, attoseconds) = duration.components
        guard attoseconds == 0, seconds >= 1 else { throw ArgumentProblem("not whole seconds; timestamps count seconds, so give 1s or more, such as 60s or 2m") }
        guard seconds <= Int64(UInt32.max) else { throw ArgumentProblem("longer than a 32-bit timestamp can count (\(UInt32.max) seconds)") }
        return UInt32(seconds)
    }
}
