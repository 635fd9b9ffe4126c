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
    /// Why the campaign gave up on the target before its end: it cannot be fuzzed as it behaves (a
    /// testee that answers what was not asked, or keeps exiting by itself). The run exits with 2.
    public var targetLost: String?
    /// The campaign was cut short after its duration and grace, an answer still awaited
    /// (`FuzzCampaign.run(within:progress:found:)`).
    public var cutShort = false
    /// How many more inputs fired each finding's signature after it was found (by signature):
    /// the findings are one per cause, and this is how often each cause showed.
    public var repeats: [String: Int] = [:]
    /// Times the testee exited by itself: between requests, or on an input it then answered.
    public var testeeExits = 0
    /// Edges of an instrumented target hit so far (`--coverage`); nil when not measured.
    public var edges: Int?
    /// Inputs coverage (or another fuzzer, `--sync-dir`) added to the corpus: each hit an edge or
    /// a count no input had before.
    public var corpusGrowth = 0
    /// Inputs taken from the other fuzzers' queues (`--sync-dir`) and asked.
    public var imported = 0
    /// What the campaign says once at its start and again in its summary: that `--coverage` found
    /// no instrumentation, and how to build with it.
    public var note: String?

    public init() {}

    /// Whether something other than the settings' end or an interruption ended the campaign.
    public var isStopped: Bool { stoppedBy != nil || targetLost != nil }

    public var inputsPerSecond: Double {
        let seconds = elapsed / .seconds(1)
        return seconds > 0 ? Double(inputs) / seconds : 0
    }
}
