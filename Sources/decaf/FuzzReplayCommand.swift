import ArgumentParser
import DecafConformance
import DecafFuzz
import DecafJSON
import DecafWire
import Foundation

/// `decaf fuzz replay FINDING -- COMMAND ARGS...`: sends a saved finding's input again and says
/// whether the same oracle fires.
struct FuzzReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Send a finding's input to a testee or a server again and say whether the same fault shows.",
        discussion: """
        Example: decaf fuzz replay decaf-findings/finding-1-crash.json -- decaf testee decoder
        Example: decaf fuzz replay decaf-findings/finding-2-hang.json --server 127.0.0.1:7447
        Example: decaf fuzz replay decaf-findings/finding-3-disagreement.json --client -- decaf testee client
        FINDING is the .json decaf fuzz saved (its input under its options, sent to a server as it was found), or any file \
        of bytes (default options). \
        Exit status: 0 the testee answers as the brief does now, 1 a fault shows (the finding's, or another), \
        2 usage error or a testee that cannot be started.
        """
    )

    @Argument(help: ArgumentHelp("The finding: NAME.json as decaf fuzz saved it, or a file of bytes.", valueName: "finding"), transform: PathArgument.parse)
    var finding: String

    @Option(help: ArgumentHelp("How long to wait for the answer. (default: 5s)", valueName: "duration"), transform: DurationArgument.positive)
    var timeout = Duration.seconds(5)

    @Option(help: ArgumentHelp("Send the input to this server, HOST:PORT, after a handshake, instead of to a testee.", valueName: "host:port"),
            transform: Endpoint.server)
    var server: Endpoint?

    @Flag(help: "The command after -- is a client testee (Specs/conform-client.md): the suite's server sends it the input after the handshake.")
    var client = false

    @Argument(parsing: .postTerminator, help: "The testee's command line, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty && server == nil { throw ValidationError("give the testee's command after --, e.g. -- decaf testee decoder, or --server HOST:PORT") }
        if !command.isEmpty && server != nil { throw ValidationError("give either --server or a testee's command after --, not both") }
        if client && command.isEmpty { throw ValidationError("give the client testee's command after --, e.g. --client -- decaf testee client") }
    }

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: finding) else { throw InputError("\(finding): cannot be read") }
        var input = [UInt8](data)
        var options = DecodeOptions()
        var signature: String?
        var plan = ServerCase.Plan()
        var earlier: [[UInt8]] = []
        // A client's finding says so (its testee line begins --client): its input goes to a client
        // whether or not --client is given, never to a codec testee, which would take it for a crash.
        var client = client
        if finding.hasSuffix(".json") {
            guard let record = try? JSONDecoder().decode(FuzzFindingJSON.self, from: data), let bytes = Hex.bytes(record.hex) else {
                throw InputError("\(finding): not a finding decaf fuzz saved (it has no input in hex); give its .json or .bin")
            }
            input = bytes
            options = record.options.decodeOptions
            signature = record.signature
            plan = record.plan
            earlier = record.earlierInputs
            if record.testee.first == "--client" && server == nil { client = true }
        }
        if let server { return try await replay(input, options: options, signature: signature, plan: plan, on: server) }
        if client { return try await replayToClient(input, options: options, signature: signature, split: plan.split, earlier: earlier) }
        let fuzzer = try DecoderFuzzer(command: command, corpus: [input], settings: FuzzSettings(timeout: timeout, options: options))
        let judged: (attempt: CaseAttempt, fired: (FuzzOracle, String)?)
        do {
            guard let result = try await fuzzer.judge(input) else {
                throw InputError("\(finding): not one frame's stream (a frame and bytes after it); the testee protocol asks about one frame")
            }
            judged = result
            // Stopped before exit(), which runs no defer: a testee left waiting would outlive the replay.
            fuzzer.stop()
        } catch let error as FuzzError {
            throw InputError("decaf fuzz replay: \(error); check the command after --")
        }
        conclude(judged, signature: signature, target: "testee", sent: "sent \(input.count) bytes, which the brief \(DecodeOutcome(of: input, options: options))")
    }

    /// Prints what was sent and what fired, and exits: 0 when no fault shows, 1 when one does (the
    /// finding's, or another).
    private func conclude(_ judged: (attempt: CaseAttempt, fired: (FuzzOracle, String)?), signature: String?, target: String, sent: String) -> Never {
        let reason = judged.attempt.result.verdict.reason
        print(sent)
        guard let (oracle, fired) = judged.fired else {
            print(judged.attempt.result.verdict.kind.isPass ? "the \(target) answered as the brief does: \(reason)" : "no fault: the brief allows this answer (\(reason))")
            Foundation.exit(0)
        }
        let same = signature.map { $0 == fired } ?? true
        print("\(oracle.rawValue.uppercased())\(same ? " again" : ", another fault than the finding's"): \(reason)")
        Foundation.exit(1)
    }

    /// Sends `input` to `server` as `plan` says and reports as for a testee.
    private func replay(_ input: [UInt8], options: DecodeOptions, signature: String?, plan: ServerCase.Plan, on server: Endpoint) async throws {
        let settings = FuzzSettings(timeout: timeout, options: options)
        let fuzzer: ServerFuzzer
        let judged: (attempt: CaseAttempt, fired: (FuzzOracle, String)?)
        do {
            fuzzer = try ServerFuzzer(host: server.host, port: server.port, corpus: [input], settings: settings,
                                      restart: nil, diagnosis: FindingDiagnoses.server(settings, recalling: signature), clock: Clock.unixSeconds)
            guard let result = try await fuzzer.judge(input, plan: plan) else {
                throw InputError("\(finding): not one frame's stream (a frame and bytes after it), or the handshake's own request again")
            }
            judged = result
        } catch let error as FuzzError {
            throw InputError("decaf fuzz replay: \(error)")
        }
        conclude(judged, signature: signature, target: "server",
                 sent: "sent \(input.count) bytes to \(fuzzer.target)\(FuzzTarget.server(plan).how), which the brief \(DecodeOutcome(of: input, options: options))")
    }

    /// Has the suite's server send `input` to the client testee after the handshake, cut as it was
    /// found, after the inputs the finding needs sent first, and reports as for a codec.
    private func replayToClient(_ input: [UInt8], options: DecodeOptions, signature: String?, split: [Int], earlier: [[UInt8]]) async throws {
        let judged: (attempt: CaseAttempt, fired: (FuzzOracle, String)?)
        do {
            let fuzzer = try ClientFuzzer(command: command, corpus: [input], settings: FuzzSettings(timeout: timeout, options: options),
                                          diagnosis: FindingDiagnoses.client(recalling: signature), clock: Clock.unixSeconds)
            guard let result = try await fuzzer.judge(input, split: split, earlier: earlier) else {
                throw InputError("\(finding): not one frame's stream (a frame and bytes after it), or a frame with the sequence of the server's own frames")
            }
            judged = result
        } catch let error as FuzzError {
            throw InputError("decaf fuzz replay: \(error); check the command after --")
        }
        conclude(judged, signature: signature, target: "client",
                 sent: "sent \(input.count) bytes to \(command.joined(separator: " "))\(FuzzTarget.client(split: split, earlier: earlier).how), which the brief \(DecodeOutcome(of: input, options: options))")
    }
}
