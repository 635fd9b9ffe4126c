import ArgumentParser
import DecafJSON
import DecafPeer
import DecafSession
import DecafWire

/// `decaf send`: DATA frames as a well-behaved mobile client sends them, with ACK latencies.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send DATA frames to a server and report ACK latency, read receipts and losses.",
        discussion: """
            Each connection handshakes, sends its messages within a window, resends a message whose ACK is \
            late (same sequence and timestamp) up to --retries times, acknowledges read receipts, and \
            reconnects after a dropped connection. While no handshake has completed, each change in what goes wrong \
            (refused, reset, an answer that is not Decaf, no answer) is said on standard error; after --connect-deadline \
            it gives up. Ctrl-C stops it and reports what was settled. Exit status 0 when every message was acknowledged, \
            1 when any was lost, 2 on a usage error or when no handshake completed, 130 when interrupted. It ends by \
            --connect-deadline when no handshake completes, and by --deadline otherwise; what is said then is the socket's \
            state (not accepted, a frame begun and unfinished, ...). Memory: the server's frames are judged as they come, \
            never queued; a frame is held until whole, up to the body limit (10 MiB).
            """
    )

    @Argument(help: ArgumentHelp("The server, HOST:PORT.", valueName: "host:port"), transform: Endpoint.server)
    var server: Endpoint

    @Option(help: ArgumentHelp("The text of each message (a TEXT field).", valueName: "text"))
    var text = "hello"

    @Option(help: ArgumentHelp("Extra fields, TAG=VALUE: TAG a name (IMAGE) or number (0x1002); VALUE text, 0x or hex: bytes, u16:N, u32:N, or a JSON array of nested fields. Repeatable.", valueName: "tag=value"),
            transform: WireArgument.field)
    var tlv: [TLVField] = []

    @Option(help: ArgumentHelp("Messages per connection. (default: 1)", valueName: "n"), transform: IntegerArgument.within(0...Int(SequenceNumber.maxCounter)))
    var count = 1

    @Option(help: ArgumentHelp("Connections, each with its own session. (default: 1)", valueName: "n"), transform: IntegerArgument.within(1...10_000))
    var connections = 1

    @Option(help: ArgumentHelp("Messages per second per connection; each falls due at that rate and waits, as in an outbox, while the window is full (default: as fast as the window allows).", valueName: "n"), transform: IntegerArgument.within(1...1_000_000))
    var rate: Int?

    @Option(help: ArgumentHelp("Messages sent but not yet acknowledged, at most, per connection. (default: 64)", valueName: "n"), transform: IntegerArgument.within(1...65_536))
    var window = 64

    @Flag(help: "Compress the bodies (ZLIB).")
    var compress = false

    @Option(help: ArgumentHelp("brief: the brief's client, three resends a second apart, then lost (EX-7). reliable: resend until the deadline on an ACK timeout that follows the round trip, send copies under measured loss, notice a silent connection within 3 s, reconnect within 1 s; the options below change either. (default: brief)",
                               valueName: "policy"))
    var policy = ClientPolicy.brief

    @Option(help: ArgumentHelp("Send an unacknowledged message again after this long; under the reliable policy, the first guess before the round trip is measured. (default: 1s)", valueName: "duration"),
            transform: DurationArgument.positive)
    var ackTimeout: Duration?

    @Option(help: ArgumentHelp("Times a message is sent again before it counts as lost. (default: 3; reliable: until the deadline)", valueName: "n"), transform: IntegerArgument.within(0...1000))
    var retries: Int?

    @Option(help: "Reconnect policy after a dropped connection.")
    var reconnect = ReconnectPolicy.exponential

    @Option(help: ArgumentHelp("Longest wait between reconnect attempts. (default: 30s; reliable: 1s)", valueName: "duration"), transform: DurationArgument.positive)
    var maxDelay: Duration?

    @Option(help: ArgumentHelp("Interval between heartbeats (default: none; reliable: 1s).", valueName: "duration"), transform: DurationArgument.positive)
    var heartbeat: Duration?

    @Option(help: ArgumentHelp("Features to offer: all, none, a number, or names like BASIC,READ_RECEIPT. (default: all)", valueName: "features"), transform: WireArgument.features)
    var features = FeatureFlags.known

    @Option(help: ArgumentHelp("Count anything not acknowledged by then as lost. (default: 120s)", valueName: "duration"), transform: DurationArgument.positive)
    var deadline = SendConfiguration().deadline

    @Option(help: ArgumentHelp("Give up when no handshake has completed by then (the server refuses, is not there, or answers in another protocol): exit 2 with the reasons seen. (default: 10s; with --policy reliable, --deadline: a reliable sender keeps trying until its messages are due)",
                               valueName: "duration"), transform: DurationArgument.positive)
    var connectDeadline: Duration?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Write a JSON line for every message settled (session, sequence, timestamp, UNIX times sent and acknowledged, sends) and every handshake completed (session, UNIX time connected).",
                               valueName: "file"), transform: PathArgument.parse)
    var messages: String?

    func run() async throws {
        let signals = await SignalWaiter.install()
        var configuration = SendConfiguration()
        configuration.host = server.host
        configuration.port = server.port
        configuration.connections = connections
        configuration.count = count
        configuration.fields = [TLVField(tag: .text, text: text)] + tlv
        configuration.rate = rate
        configuration.deadline = deadline
        configuration.connectDeadline = min(connectDeadline ?? (policy == .reliable ? deadline : SendConfiguration().connectDeadline), deadline)
        configuration.client = policy.configuration
        configuration.client.compress = compress
        configuration.client.window = window
        if let ackTimeout { configuration.client.ackTimeout = ackTimeout }
        if let retries { configuration.client.retries = retries }
        configuration.client.reconnect = reconnect
        if let maxDelay { configuration.client.maxDelay = maxDelay }
        if let heartbeat { configuration.client.heartbeat = heartbeat }
        configuration.client.features = features
        if let messages {
            let log = try JSONLinesFile(path: messages, option: "--messages")
            configuration.onMessage = { log.write(MessageRecordJSON($0)) }
            configuration.onConnected = { session, at in log.write(ConnectionRecordJSON(session: session.rawValue, connected: at)) }
        }
        let problems = ConnectionProblemLog()
        let report = try await signals.interrupting { [configuration] in
            try await SendClient.run(configuration, clock: Clock.unixSeconds, wallClock: Clock.now, onConnectionProblem: problems.note)
        }
        if report.neverConnected && !report.interrupted {
            if json { print(SendReportJSON(report).line) }
            let reason = report.givenUpWhileConnecting ?? problems.last ?? "\(server) did not complete a handshake"
            let attempts = max(1, problems.count)
            throw InputError("\(reason); no handshake completed: gave up after \(attempts) attempt\(attempts == 1 ? "" : "s") in \(Milliseconds.text(report.elapsed))")
        }
        print(json ? SendReportJSON(report).line : SendReportText(report).lines.joined(separator: "\n"))
        if report.interrupted { throw ExitCode(130) }
        if !report.succeeded { throw ExitCode.failure }
    }
}

extension ReconnectPolicy: ExpressibleByArgument {}
extension ClientPolicy: ExpressibleByArgument {}
