import DecafTestSupport
import Foundation
import Testing

/// Every option and argument of every subcommand, read from the commands' own definitions
/// (`decaf --experimental-dump-help`), given every value of a table of hostile ones. A value its
/// kind cannot mean is refused: exit status 2 and one line naming the option. A value its kind may
/// take (a file called `nan`, the text `inf`) runs the command. Nothing ends in a signal.
@Suite("hostile command lines", .timeLimit(.minutes(8)))
struct HostileArgumentTests {
    /// The table: empty, not a number, infinite, negative, zero, 2^64, very long, an unknown name.
    static let hostileValues = [
        "", "nan", "inf", "-1", "0", "18446744073709551616",
        String(repeating: "9", count: 100_000), String(repeating: "x", count: 100_000), "no-such-name",
    ]

    /// What an option of each kind (its value name in `--help`) may accept from the table. Zero
    /// means something to some counts and delays and is refused by the rest, so it is never held
    /// against a kind; every kind not listed must refuse every other hostile value.
    static let acceptedByKind: [String: Set<String>] = {
        let all = Set(hostileValues)
        let nonEmpty = all.subtracting([""])
        return ["text": all, "file": nonEmpty, "directory": nonEmpty, "pattern": nonEmpty, "hex": nonEmpty, "case-id": nonEmpty, "proxy-name": nonEmpty, "command": nonEmpty, "capture": nonEmpty]
    }()

    /// Values for required arguments while another one is tried, by value name.
    static let benignArguments = ["host:port": "127.0.0.1:1", "directory": "out", "case-id": "handshake.basic-only"]

    /// A command that is still running after this was given a value it accepts (a peer serves, a
    /// client retries an address nobody listens on); it is stopped and counts as not crashing.
    static let limit = Duration.seconds(3)
    /// A value that must be refused is given this long, a bound no refusal comes near.
    static let refusalLimit = Duration.seconds(15)

    struct Trial: Sendable {
        var arguments: [String]
        /// `--timeout` or `<host:port>`: what the error line must name.
        var shownAs: String
        var value: String
        var mustRefuse: Bool
    }

    @Test("every option of every subcommand refuses hostile values with exit status 2 and one line; nothing crashes")
    func hostileValues() async throws {
        let trials = try await Self.trials()
        #expect(trials.count > 500, "the walk found only \(trials.count) trials: did it read the definitions?")
        var results = await Self.runAll(trials)
        // A refusal that did not come within its limit while eight ran at once on a loaded
        // machine gets one more run, alone and with the same limit: a command that hangs hangs
        // again, one that was only starved of the processor does not.
        for index in results.indices where trials[index].mustRefuse && results[index].ending == .stoppedAtLimit {
            results[index] = await Self.runAll([trials[index]])[0]
        }
        for (trial, run) in zip(trials, results) {
            let shown = Self.abbreviated(trial.arguments)
            if case let .signalled(signal) = run.ending {
                Issue.record("decaf \(shown) died of signal \(signal): \(run.standardError.prefix(300))")
                continue
            }
            guard trial.mustRefuse else {
                if case let .exited(status) = run.ending {
                    #expect((0...3).contains(status), "decaf \(shown) exited with \(status): \(run.standardError.prefix(300))")
                }
                continue
            }
            let lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(run.ending == .exited(2), "decaf \(shown) accepted '\(trial.value.prefix(30))' (\(run.ending)); \(trial.shownAs) must refuse it")
            #expect(lines.count == 2 && lines[1].isEmpty, "decaf \(shown) did not say why in one line: \(run.standardError.prefix(400))")
            #expect(run.standardError.contains(trial.shownAs), "decaf \(shown): the message does not name \(trial.shownAs): \(run.standardError.prefix(300))")
        }
    }

    /// Every trial: each option and each argument of each leaf command, with each hostile value.
    static func trials() async throws -> [Trial] {
        let help = try await DecafProcess.run(["--experimental-dump-help"])
        let root = try JSONDecoder().decode(ToolInfo.self, from: Data(help.output.utf8)).command
        var trials: [Trial] = []
        for (path, command) in root.leaves() where path != ["help"] {
            let arguments = command.arguments ?? []
            let positionals = arguments.filter { $0.kind == "positional" && $0.parsingStrategy != "postTerminator" }
            let terminated = arguments.contains { $0.parsingStrategy == "postTerminator" } ? ["--", "true"] : []
            let required = positionals.filter { !$0.isOptional }.compactMap { benignArguments[$0.valueName ?? ""] }
            for argument in arguments where argument.kind != "flag" && argument.parsingStrategy != "postTerminator" {
                let kind = argument.valueName ?? ""
                for value in hostileValues {
                    let mustRefuse = value != "0" && !(acceptedByKind[kind]?.contains(value) ?? false)
                    if argument.kind == "option", let name = argument.names?.first(where: { $0.kind == "long" })?.name {
                        trials.append(Trial(arguments: path + required + ["--\(name)=\(value)"] + terminated, shownAs: "--\(name)", value: value, mustRefuse: mustRefuse))
                    } else if argument.kind == "positional", positionals.count <= 1 {
                        trials.append(Trial(arguments: path + ["--", value], shownAs: "<\(kind)>", value: value, mustRefuse: mustRefuse))
                    }
                }
            }
        }
        return trials
    }

    /// Runs the trials eight at a time, each in its own directory (some write files), in order.
    static func runAll(_ trials: [Trial]) async -> [BoundedRun] {
        let base = FileManager.default.temporaryDirectory.appending(path: "decaf-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        return await withTaskGroup(of: (Int, BoundedRun).self) { group in
            var results = [BoundedRun?](repeating: nil, count: trials.count)
            var next = 0
            func start() {
                guard next < trials.count else { return }
                let index = next
                next += 1
                group.addTask {
                    let directory = base.appending(path: "\(index)")
                    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    // A refusal comes at once; the long limit only gives a loaded machine room to start the process.
                    let bound = trials[index].mustRefuse ? refusalLimit : limit
                    return (index, await BoundedRun.run(trials[index].arguments, in: directory, limit: bound))
                }
            }
            for _ in 0..<8 { start() }
            for await (index, run) in group {
                results[index] = run
                start()
            }
            return results.map { $0 ?? BoundedRun(arguments: [], ending: .exited(-1), standardError: "did not run") }
        }
    }

    static func abbreviated(_ arguments: [String]) -> String {
        arguments.map { $0.count > 60 ? "\($0.prefix(30))…(\($0.count) characters)" : $0 }.joined(separator: " ")
    }
}
