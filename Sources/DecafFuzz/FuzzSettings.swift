import DecafWire

/// How a campaign runs: its seed (the same seed and corpus give the same inputs), when it stops,
/// how long an answer may take, and the decoder's options the brief's answers assume.
public struct FuzzSettings: Sendable {
    public var seed: UInt64
    /// Inputs to try; nil for as many as `duration` allows.
    public var runs: Int?
    /// How long to fuzz; nil for `runs` inputs.
    public var duration: Duration?
    /// Stop once this many distinct findings are made; nil to go on.
    public var maxFindings: Int?
    /// The longest the testee may take to answer one input before it counts as hung.
    public var timeout: Duration
    public var options: DecodeOptions
    /// The most times a finding is tried again while it is minimized (each try can cost a whole
    /// timeout for a hang), so minimizing ends in bounded time.
    public var minimizingBudget: Int
    /// The longest a finding is minimized, however many tries are left: a server that must be
    /// restarted after each crash makes each try slow on a loaded machine.
    public var minimizingTime: Duration
    /// Inputs asked at once (testees, connections or clients side by side); minimizing asks one
    /// at a time. The inputs are the same whatever it is.
    public var jobs: Int
    /// Whether to read an AFL++-instrumented target's coverage and keep the inputs that reach
    /// something new (`--coverage`).
    public var coverage: Bool
    /// The directory shared with other fuzzers in AFL++'s layout (`--sync-dir`), and this
    /// campaign's name in it (`--sync-name`); nil for a campaign of its own.
    public var sync: (directory: String, name: String)?
    /// How often the others' queues are read (`--sync-interval`).
    public var syncInterval: Duration = .seconds(10)

    public init(seed: UInt64 = 1, runs: Int? = nil, duration: Duration? = nil, maxFindings: Int? = nil, timeout: Duration = .seconds(5),
                options: DecodeOptions = DecodeOptions(), minimizingBudget: Int = 400, minimizingTime: Duration = .seconds(60), jobs: Int = 1,
                coverage: Bool = false) {
        self.seed = seed
        self.runs = runs
        self.duration = duration
        self.maxFindings = maxFindings
        self.timeout = timeout
        self.options = options
        self.minimizingBudget = minimizingBudget
        self.minimizingTime = minimizingTime
        self.jobs = max(1, jobs)
        self.coverage = coverage
    }

    /// Whether a campaign that has reached `state` is over: its runs made, its time spent, or its
    /// findings found.
    public func isOver(_ state: FuzzProgress) -> Bool {
        if let runs, state.inputs >= runs { return true }
        if let duration, state.elapsed >= duration { return true }
        if let maxFindings, state.findings >= maxFindings { return true }
        return false
    }
}
