/// How a run against a client testee goes: the testee's command, cases at once, repeats, and
/// the clock the scripted server stamps its frames with.
public struct ClientRunSettings: Sendable {
    /// The testee's command line, started once per case (and per instance in cases with several).
    public var command: [String]
    /// Cases run at once, each with its own listener and testee.
    public var jobs = 8
    /// Runs of every case; more than one finds flaky cases.
    public var repeats = 1
    /// The UNIX time in seconds, for the timestamps of the server's frames.
    public var clock: @Sendable () -> UInt32
    /// Added to every testee's environment, over the suite's own variables: an AFL++ coverage
    /// map's name, when the fuzzer reads the client's coverage.
    public var environment: [String: String] = [:]

    public init(command: [String], clock: @escaping @Sendable () -> UInt32) {
        self.command = command
        self.clock = clock
    }
}
