/// How a run against a server talks to it.
public struct ServerRunSettings: Sendable {
    public var host: String
    public var port: Int
    /// The longest wait for anything the target must do, per expectation.
    public var timeout: Duration = Self.defaultTimeout
    public static let defaultTimeout: Duration = .seconds(2)
    /// Cases run at once, each on its own connection.
    public var jobs: Int = 4
    /// Runs of every case; more than one finds flaky cases.
    public var repeats: Int = 1
    /// The run's clock (UNIX seconds), written into the timestamps of the frames it sends; nil
    /// sends the catalog's bytes exactly.
    public var clock: (@Sendable () -> UInt32)?

    public init(host: String, port: Int, clock: (@Sendable () -> UInt32)?) {
        self.host = host
        self.port = port
        self.clock = clock
    }
}
