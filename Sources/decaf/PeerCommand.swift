import ArgumentParser
import DecafPeer
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

    @Option(help: "Address to listen on; port 0 picks a free port.")
    var listen = Endpoint(argument: "127.0.0.1:0")!

    @Option(help: "The peer's own version: its major and highest minor.")
    var version = ProtocolVersion.v1_0

    @Option(help: "Features the peer supports: all, none, a number, or names like BASIC,READ_RECEIPT.")
    var features = FeatureFlags.known

    @Option(help: "Misbehave on purpose (repeatable); see --list-faults. slow-ack takes milliseconds: slow-ack=250.")
    var fault: [String] = []

    @Flag(help: "List the faults and exit.")
    var listFaults = false

    @Option(help: "Milliseconds before a read receipt is sent.")
    var readReceiptDelay = 0

    @Option(help: "Seconds without a frame before a connection is closed.")
    var idleTimeout = 90.0

    @Option(help: "Connections open at once, at most.")
    var maxConnections = 1024

    @Option(help: "Refuse frames whose timestamp is this many seconds from the peer's clock (off by default).")
    var timestampWindow: UInt32?

    @Option(help: "Seconds a frame is remembered to recognise repeats.")
    var replayWindow: UInt32 = 60

    @Option(help: "Record every connection to this pcap file.")
    var pcap: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "Largest body accepted, before and after inflating, in bytes.")
    var bodyLimit = DecodeOptions.defaultBodyLimit

    @Option(help: "Deepest nesting level of TLV containers accepted.")
    var depthLimit = 4

    func validate() throws {
        for name in fault where PeerFault(argument: name) == nil {
            throw ValidationError("unknown fault '\(name)'; see --list-faults")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level '\(logLevel)'") }
        guard idleTimeout > 0, maxConnections > 0 else { throw ValidationError("--idle-timeout and --max-connections must be positive") }
        guard bodyLimit >= 0, bodyLimit <= Int(UInt32.max), depthLimit >= 0 else {
            throw ValidationError("--body-limit must be 0...4294967295 and --depth-limit not negative")
        }
    }

    func run() async throws {
        if listFaults {
            for fault in PeerFault.all {
                print("\(fault.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(fault.summary) (breaks \(fault.breaks.map(\.rawValue).joined(separator: ", ")))")
            }
            return
        }
        let level = Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = PeerConfiguration()
        configuration.version = version
        configuration.features = features
        configuration.faults = fault.compactMap(PeerFault.init(argument:))
        configuration.readReceiptDelay = .milliseconds(readReceiptDelay)
        configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        configuration.maxConnections = maxConnections
        configuration.timestampWindow = timestampWindow
        configuration.replayWindow = replayWindow
        configuration.bodyLimit = bodyLimit
        configuration.depthLimit = depthLimit
        let server = try await PeerServer.start(configuration: configuration, host: listen.host, port: listen.port,
                                                pcapPath: pcap, clock: Clock.unixSeconds)
        // Written unbuffered: scripts read this line while the peer runs.
        FileHandleOutput.standardOutput.write("listening on \(listen.host):\(server.localAddress.port ?? listen.port)\n")
        if !configuration.faults.isEmpty {
            FileHandleOutput.standardOutput.write("faults: \(configuration.faults.map(\.name).joined(separator: ", "))\n")
        }
        let signal = await SignalWaiter.wait()
        try await server.shutdown()
        let statistics = server.statistics
        print("stopped by signal \(signal): \(statistics.connectionsAccepted) connections, \(statistics.framesReceived) frames received, "
            + "\(statistics.framesDelivered) delivered, \(statistics.repeats) repeats, \(statistics.protocolErrors) protocol errors")
    }
}
