import ArgumentParser
import DecafNIO
import DecafPeer
import DecafWire
import Foundation

/// `decaf handshake`: performs the version handshake and says what was agreed.
struct HandshakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handshake",
        abstract: "Perform the version handshake with a server and print the agreed version and features.",
        discussion: """
            Exit status 0 when the handshake succeeds, 1 when the server answers but the handshake fails, 2 on a usage error, \
            or when nothing that speaks Decaf answers: the server cannot be reached, answers in another protocol (HTTP, TLS, SSH), \
            closes or resets the connection without a byte, or sends nothing within --timeout. It ends within twice --timeout \
            (the connection, then the answer); a connection nothing accepted, or a frame begun and unfinished, is said as such. \
            Memory: the server's frames are judged as they come; a frame is held until whole, up to the body limit (10 MiB).
            """
    )

    @Argument(help: ArgumentHelp("The server, HOST:PORT.", valueName: "host:port"), transform: Endpoint.server)
    var server: Endpoint

    @Option(help: ArgumentHelp("The version to offer. (default: 1.0)", valueName: "version"), transform: WireArgument.version)
    var protocolVersion = ProtocolVersion.v1_0

    @Option(help: ArgumentHelp("Features to offer: all, none, a number, or names like BASIC,READ_RECEIPT. (default: all)", valueName: "features"), transform: WireArgument.features)
    var features = FeatureFlags.known

    @Option(help: ArgumentHelp("How long to wait for the answer. (default: 5s)", valueName: "duration"), transform: DurationArgument.positive)
    var timeout = Duration.seconds(5)

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        let offer = VersionRequest(version: protocolVersion, features: features.union(.basic))
        let report: HandshakeReport
        do {
            report = try await HandshakeClient.run(host: server.host, port: server.port, offer: offer,
                                                   timeout: timeout, now: Clock.unixSeconds)
        } catch {
            if json { print(HandshakeReportJSON(connectionError: "\(error)").line) }
            throw InputError("\(error)")
        }
        if let reason = report.unusable(target: "\(server)", timeout: timeout) {
            if json { print(HandshakeReportJSON(report, unusable: reason).line) }
            throw InputError(reason)
        }
        print(json ? HandshakeReportJSON(report).line : HandshakeReportText(report, server: server).lines.joined(separator: "\n"))
        if !report.succeeded { throw ExitCode.failure }
    }
}
