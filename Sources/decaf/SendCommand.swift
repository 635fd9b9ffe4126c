import ArgumentParser
import DecafPeer
import DecafWire

/// `decaf send`: DATA frames as a well-behaved mobile client sends them, with ACK latencies.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send DATA frames to a server and report ACK latency, read receipts and losses.",
        discussion: """
            Each connection handshakes, sends its messages within a window, resends a message whose ACK is \
            late (same sequence and timestamp) up to --retries times, acknowledges read receipts, and \
            reconnects after a dropped connection. Exit status 0 when every message was acknowledged, 1 when \
            any was lost, 2 on a usage error.
            """
    )

    @Argument(help: "The server, HOST:PORT.")
    var server: Endpoint

    @Option(help: "The text of each message (a TEXT field).")
    var text = "hello"

    @Option(help: "Extra fields, TAG=VALUE: TAG a name (IMAGE) or number (0x1002); VALUE text, 0x or hex: bytes, u16:N, u32:N, or a JSON array of nested fields. Repeatable.")
    var tlv: [TLVArgument] = []

    @Option(help: "Messages per connection.")
    var count = 1

    @Option(help: "Connections, each with its own session.")
    var connections = 1

    @Option(help: "Messages per second per connection (default: as fast as the window allows).")
    var rate: Int?

    @Option(help: "Messages sent but not yet acknowledged, at most, per connection.")
    var window = 64

    @Flag(help: "Compress the bodies (ZLIB).")
    var compress = false

    @Option(help: "Milliseconds before an unacknowledged message is sent again.")
    var ackTimeout = 1000

    @Option(help: "Times a message is sent again before it counts as lost.")
    var retries = 3

    @Option(help: "Reconnect policy after a dropped connection: exponential, fibonacci or none.")
    var reconnect = "exponential"

    @Option(help: "Longest wait between reconnect attempts, in seconds.")
    var maxDelay = 30.0

    @Option(help: "Seconds between heartbeats (default: none).")
    var heartbeat: Double?

    @Option(help: "Features to offer: all, none, a number, or names like BASIC,READ_RECEIPT.")
    var features = FeatureFlags.known

    @Option(help: "Seconds after which anything not acknowledged counts as lost.")
    var deadline = 120.0

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard count >= 0, count <= Int(SequenceNumber.maxCounter) else { throw ValidationError("--count must be 0...16777215") }
        guard connections >= 1, window >= 1, retries >= 0, ackTimeout >= 1 else {
            throw ValidationError("--connections, --window and --ack-timeout must be positive, --retries not negative")
        }
        guard ReconnectPolicy(rawValue: reconnect) != nil else { throw ValidationError("--reconnect is exponential, fibonacci or none") }
        if let rate, rate < 1 { throw ValidationError("--rate must be positive") }
    }

    func run() async throws {
        var configuration = SendConfiguration()
        configuration.host = server.host
        configuration.port = server.port
        configuration.connections = connections
        configuration.count = count
        configuration.fields = [TLVField(tag: .text, text: text)] + tlv.map(\.field)
        configuration.compress = compress
        configuration.window = window
        configuration.rate = rate
        configuration.ackTimeout = .milliseconds(ackTimeout)
        configuration.retries = retries
        configuration.reconnect = ReconnectPolicy(rawValue: reconnect)!
        configuration.maxDelay = .milliseconds(Int64(maxDelay * 1000))
        configuration.heartbeat = heartbeat.map { .milliseconds(Int64($0 * 1000)) }
        configuration.features = features
        configuration.deadline = .milliseconds(Int64(deadline * 1000))
        let report = try await SendClient.run(configuration, clock: Clock.unixSeconds)
        print(json ? SendReportJSON(report).line : SendReportText(report).lines.joined(separator: "\n"))
        if !report.succeeded { throw ExitCode.failure }
    }
}
