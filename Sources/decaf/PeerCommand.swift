import ArgumentParser
import DecafDiagnosis
import DecafDissect
import DecafJSON
import DecafNIO
import DecafPeer
import DecafSession
import DecafWire
import Foundation
import Logging

/// `decaf peer`: the loopback reference peer.
struct PeerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer",
        abstract: "Run the reference peer: a server that speaks the protocol correctly, or with chosen faults.",
        discussion: "The first line printed is the address it listens on. SIGINT or SIGTERM stop it gracefully."
    )

    @Option(help: ArgumentHelp("Address to listen on, HOST:PORT; port 0 picks a free port. (default: 127.0.0.1:0)", valueName: "host:port"), transform: Endpoint.listening)
    var listen = Endpoint(host: "127.0.0.1", port: 0)

    @Option(help: ArgumentHelp("The peer's own version: its major and highest minor. (default: 1.0)", valueName: "version"), transform: WireArgument.version)
    var protocolVersion = ProtocolVersion.v1_0

    @Option(help: ArgumentHelp("Features the peer supports: all, none, a number, or names like BASIC,READ_RECEIPT. (default: all)", valueName: "features"), transform: WireArgument.features)
    var features = FeatureFlags.known

    @Option(help: ArgumentHelp("Misbehave on purpose (repeatable); see --list-faults. slow-ack takes a delay: slow-ack=250ms.", valueName: "fault"), transform: WireArgument.fault)
    var fault: [PeerFault] = []

    @Flag(help: "List the faults and exit.")
    var listFaults = false

    @Option(help: ArgumentHelp("Decode what clients send with a codec that makes this mistake (repeatable; decaf testee decoder --list-mistakes shows them).",
                               valueName: "name"))
    var mistake: [CodecMistake] = []

    @Option(help: ArgumentHelp("Make this choice the brief leaves a server (a legal server either way; --list-choices shows them); repeatable.",
                               valueName: "name"))
    var choice: [PeerChoice] = []

    @Flag(help: "List the choices the brief leaves a server, and what each does.")
    var listChoices = false

    @Option(help: ArgumentHelp("Wait before a read receipt is sent. (default: 0s)", valueName: "duration"), transform: DurationArgument.nonNegative)
    var readReceiptDelay = Duration.zero

    @Option(help: ArgumentHelp("Close a connection that sends nothing for this long. (default: 90s)", valueName: "duration"), transform: DurationArgument.positive)
    var idleTimeout = PeerConfiguration().idleTimeout

    @Option(help: ArgumentHelp("Connections open at once, at most. (default: 1024)", valueName: "n"), transform: IntegerArgument.within(1...1_000_000))
    var maxConnections = PeerConfiguration().maxConnections

    @Option(help: ArgumentHelp("Refuse frames whose timestamp is farther than this from the peer's clock, in whole seconds (TS-1; off by default).", valueName: "duration"),
            transform: WholeSeconds.parse)
    var timestampWindow: UInt32?

    @Option(help: ArgumentHelp("How long a frame is remembered to recognise repeats, in whole seconds. (default: 60s)", valueName: "duration"), transform: WholeSeconds.parse)
    var replayWindow = PeerConfiguration().replayWindow

    @Option(help: ArgumentHelp("Record every connection to this pcap file.", valueName: "file"), transform: PathArgument.parse)
    var pcap: String?

    @Option(help: "How much to log: warnings and the summary by default; info logs every connection, debug and trace more. (default: warning, or info with -v)")
    var logLevel: Logger.Level?

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Log every connection opened and closed, with what it carried (--log-level info).")
    var verbose = false

    @OptionGroup var limits: ReceiverLimitsArguments

    @Flag(help: "Refuse a frame with a bad header only once its body is in or the stream ends, not from the header: the brief allows both (a body too large is still refused from the header).")
    var refuseAfterBody = false

    @Option(help: ArgumentHelp("Write a JSON line for every message delivered (session, sequence, timestamp, and the UNIX time it was delivered), not for its repeats.",
                               valueName: "file"), transform: PathArgument.parse)
    var deliveries: String?

    func run() async throws {
        if listFaults {
            for line in FaultListing.lines(PeerFault.named.map { ($0.name, $0.breaks, $0.summary) }) { print(line) }
            return
        }
        if listChoices {
            for line in FaultListing.lines(PeerChoice.allCases.map { ($0.rawValue, [], $0.summary) }) { print(line) }
            return
        }
        let level = logLevel ?? (verbose ? .info : .warning)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = PeerConfiguration()
        configuration.version = protocolVersion
        configuration.features = features
        configuration.faults = fault
        configuration.choices = Set(choice)
        configuration.readReceiptDelay = readReceiptDelay
        configuration.idleTimeout = idleTimeout
        configuration.maxConnections = maxConnections
        configuration.timestampWindow = timestampWindow
        configuration.replayWindow = replayWindow
        configuration.bodyLimit = limits.bodyLimit
        configuration.depthLimit = limits.depthLimit
        configuration.allowsDuplicateTags = limits.allowDuplicateTags
        configuration.refusesFromHeader = !refuseAfterBody
        var onDelivery: (@Sendable (FrameHeader) -> Void)?
        if let deliveries {
            let log = try JSONLinesFile(path: deliveries, option: "--deliveries")
            onDelivery = { header in log.write(MessageRecordJSON(header, delivered: Clock.now())) }
        }
        let signals = await SignalWaiter.install()
        let server: PeerServer
        do {
            server = try await PeerServer.start(configuration: configuration, host: listen.host, port: listen.port,
                                                pcapPath: pcap, mistakes: Set(mistake), clock: Clock.unixSeconds,
                                                onDelivery: onDelivery)
        } catch {
            throw InputError("\(error)")
        }
        // Written unbuffered: scripts read this line while the peer runs.
        FileHandleOutput.standardOutput.write("listening on \(HostAndPort(host: listen.host, port: server.localAddress.port ?? listen.port))\n")
        if !configuration.faults.isEmpty {
            FileHandleOutput.standardOutput.write("faults: \(configuration.faults.map(\.name).joined(separator: ", "))\n")
        }
        if !mistake.isEmpty {
            FileHandleOutput.standardOutput.write("codec mistakes: \(Set(mistake).sorted().map(\.name).joined(separator: ", "))\n")
        }
        let signal = await signals.wait()
        try await server.shutdown()
        let statistics = server.statistics
        print("stopped by signal \(signal): \(statistics.connectionsAccepted) connections, \(statistics.framesReceived) frames received, "
            + "\(statistics.framesDelivered) delivered, \(statistics.repeats) repeats, \(statistics.protocolErrors) protocol errors")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

extension PeerChoice: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
