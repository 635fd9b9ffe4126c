import ArgumentParser
import DecafConformance
import DecafDissect
import DecafNIO
import DecafSession
import DecafWire
import Foundation
import NIOConcurrencyHelpers
import NIOPosix

/// `decaf testee client`: the reference client (`ClientSession` on NIO) as a testee of `decaf
/// conform client`, speaking Specs/conform-client.md on its standard input and output, with
/// faults on purpose.
struct TesteeClientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "The reference client as a testee: decaf conform client -- decaf testee client.",
        discussion: """
            It connects to DECAF_CONFORM_HOST:DECAF_CONFORM_PORT, sends the messages given on standard input and \
            reports what its application sees on standard output, as Specs/conform-client.md says. \
            With --fault it misbehaves on purpose, to show what the suite catches.
            """
    )

    @Option(help: ArgumentHelp("Misbehave on purpose (--list-faults shows them); repeatable.", valueName: "name"))
    var fault: [ClientFault] = []

    @Flag(help: "List the faults, what each does and the requirements it breaks.")
    var listFaults = false

    @Option(help: ArgumentHelp("Make this choice the brief leaves a client (a legal client either way; --list-choices shows them); repeatable.",
                               valueName: "name"))
    var choice: [ClientChoice] = []

    @Flag(help: "List the choices the brief leaves a client, and what each does.")
    var listChoices = false

    @Option(help: ArgumentHelp("Largest body the client accepts, before and after inflating, in bytes. (default: 10485760)", valueName: "bytes"),
            transform: IntegerArgument.within(0...Int(UInt32.max)))
    var bodyLimit = DecodeOptions.defaultBodyLimit

    @Option(help: ArgumentHelp("The version the client offers: its major and highest minor. (default: 1.0)", valueName: "version"), transform: WireArgument.version)
    var protocolVersion = ProtocolVersion.v1_0

    @Option(help: ArgumentHelp("The features the client offers: all, none, a number, or names like BASIC,READ_RECEIPT. (default: all but ENCRYPTION)",
                               valueName: "features"), transform: WireArgument.features)
    var features = FeatureFlags.known.subtracting(.encryption)

    func run() throws {
        if listFaults {
            for line in FaultListing.lines(ClientFault.allCases.map { ($0.name, $0.breaks, $0.summary) }) { print(line) }
            return
        }
        if listChoices {
            for line in FaultListing.lines(ClientChoice.allCases.map { ($0.rawValue, [], $0.summary) }) { print(line) }
            return
        }
        let environment = ProcessInfo.processInfo.environment
        guard let host = environment["DECAF_CONFORM_HOST"], let portText = environment["DECAF_CONFORM_PORT"] else {
            throw InputError("DECAF_CONFORM_HOST and DECAF_CONFORM_PORT are not set: decaf conform client starts this command with them")
        }
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw InputError("DECAF_CONFORM_PORT is \(portText.debugDescription), not a port from 1 to 65535")
        }
        var problem: String?
        let settings = ClientSettings(environment: environment, problem: &problem)
        if let problem { throw InputError(problem) }
        var testee = ReferenceClientTestee(faults: Set(fault))
        testee.choices = Set(choice)
        testee.bodyLimit = bodyLimit
        testee.version = protocolVersion
        testee.features = features
        let (configuration, ready) = testee.configuration(for: settings)
        let output = FileHandleOutput.standardOutput
        output.write(ClientTesteeEvent.ready(ready).line + "\n")
        // The application's ids of the messages, by the numbers the session knows them by.
        let names = NIOLockedValueBox<[Int: String]>([:])

        let client = ClientConnection(
            host: host, port: port, configuration: configuration, eventLoop: MultiThreadedEventLoopGroup.singleton.next(),
            unixSeconds: Clock.unixSeconds,
            onEvent: { event in
                let reported = ClientTesteeEvent(event) { number in names.withLockedValue { $0[number] } ?? String(number) }
                if let reported { output.write(reported.line + "\n") }
            },
            onConnectionProblem: { FileHandleOutput.standardError.write("decaf testee client: \($0); still trying\n") }
        )
        client.start()
        let reader = Thread {
            var number = 0
            while let line = readLine() {
                guard let message = ClientCase.Message(line: line) else {
                    FileHandleOutput.standardError.write("decaf testee client: ignored a line that is not a send request: \(line.prefix(120))\n")
                    continue
                }
                number += 1
                names.withLockedValue { [number] in $0[number] = message.id }
                client.submit(ClientMessage(id: number, payload: message.payload))
            }
            client.endOfInput()
        }
        reader.start()
        _ = try? client.finished.wait()
    }
}

extension ClientFault: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension ClientChoice: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
