import ArgumentParser
import DecafPeer
import DecafWire
import Foundation

/// `decaf handshake`: performs the version handshake and says what was agreed.
struct HandshakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handshake",
        abstract: "Perform the version handshake with a server and print the agreed version and features.",
        discussion: "Exit status 0 when the handshake succeeds, 1 when it does not, 2 on a usage error."
    )

    @Argument(help: "The server, HOST:PORT.")
    var server: Endpoint

    @Option(help: "The version to offer.")
    var version = ProtocolVersion.v1_0

    @Option(help: "Features to offer: all, none, a number, or names like BASIC,READ_RECEIPT.")
    var features = FeatureFlags.known

    @Option(help: "Seconds to wait for the answer.")
    var timeout = 5.0

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        let offer = VersionRequest(version: version, features: features.union(.basic))
        let report: HandshakeReport
        do {
            report = try await HandshakeClient.run(host: server.host, port: server.port, offer: offer,
                                                   timeout: .milliseconds(Int64(timeout * 1000)), now: Clock.unixSeconds())
        } catch {
            print(json ? HandshakeReportJSON(connectionError: "\(error)").line : "cannot connect to \(server): \(error)")
            throw ExitCode.failure
        }
        print(json ? HandshakeReportJSON(report).line : HandshakeReportText(report, server: server).lines.joined(separator: "\n"))
        if !report.succeeded { throw ExitCode.failure }
    }
}
