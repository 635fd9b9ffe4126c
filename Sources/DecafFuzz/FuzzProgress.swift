/// Where a campaign is: what the live progress line shows, and what its summary says at the end.
public struct FuzzProgress: Sendable {
    /// Inputs the testee was asked about.
    public var inputs = 0
    public var findings = 0
    /// Different answers seen (a frame, and each error name): how much of the testee the inputs reach.
    public var distinctAnswers = 0
    public var elapsed: Duration = .zero
    /// The run was stopped (Ctrl-C) before its runs or duration were done.
    public var interrupted = false
    /// Why the campaign ended before its runs or duration, when something other than an
    /// interruption ended it (a server that died with no way to restart it).
    public var stoppedBy: String?

    public init() {}

    public var inputsPerSecond: Double {
        let seconds = elapsed / .seconds(1)
        return seconds > 0 ? Double(inputs) / seconds : 0
    }
}
