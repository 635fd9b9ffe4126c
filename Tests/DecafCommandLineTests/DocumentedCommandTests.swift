@testable import decaf
import DecafTestSupport
import Foundation
import Testing

/// Every command the README shows and every example in the commands' help, read from the
/// documents themselves, so the documentation cannot rot: each parses as the tool parses it, and
/// each the README shows with its output runs, as written, and ends as shown.
@Suite("commands the documentation shows", .timeLimit(.minutes(8)))
struct DocumentedCommandTests {
    /// The README and every guide in `docs/`, each with the commands it shows.
    static let documents: [(name: String, commands: [DocumentedCommand])] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: FixturePaths.root.appending(path: "docs").path)) ?? []
        return (["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }).map { name in
            (name, DocumentedCommand.markdown((try? String(contentsOf: FixturePaths.root.appending(path: name), encoding: .utf8)) ?? "", name: name))
        }
    }()

    /// Every command the documents show.
    static var shown: [DocumentedCommand] { documents.flatMap(\.commands) }

    static func helpExamples() async throws -> [DocumentedCommand] {
        let help = try await DecafProcess.run(["--experimental-dump-help"])
        let root = try JSONDecoder().decode(ToolInfo.self, from: Data(help.output.utf8)).command
        return root.all.flatMap { DocumentedCommand.helpExamples(of: $0, named: $0.commandName) }
    }

    @Test("the README, the guides and the help show Decaf's commands: the reading finds them")
    func found() async throws {
        #expect(Self.shown.filter(\.isTranscript).count >= 25, "\(Self.shown.count) commands found in the README and docs/")
        #expect(Self.documents.first?.commands.filter(\.isTranscript).count ?? 0 >= 5, "the README's tour")
        #expect(Self.shown.contains { $0.text.hasPrefix("decaf conform server 10.1.2.3:7447 --baseline") })
        #expect(Self.shown.count { $0.isTranscript && $0.line.background } >= 3, "the documents' peers and proxies")
        #expect(try await Self.helpExamples().count >= 4)
    }

    @Test("every Decaf command the README and the help show parses as the tool parses it (unless shown refused)")
    func parses() async throws {
        let documented = Self.shown + (try await Self.helpExamples())
        for command in documented where command.status != 2 {
            for words in command.line.pipeline where DocumentedCommand.isDecaf(words) {
                do { _ = try Decaf.parseAsRoot(Array(words.dropFirst())) } catch { Issue.record("\(command): \(Decaf.fullMessage(for: error))") }
            }
        }
    }

    /// A directory laid out like a checkout after `make demo`: the fixtures, the tools, the built
    /// `decaf`, and the stream the demo makes.
    static func workspace() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-readme-\(UUID().uuidString)")
        let files = FileManager.default
        try files.createDirectory(at: directory.appending(path: ".build/debug"), withIntermediateDirectories: true)
        try files.createDirectory(at: directory.appending(path: ".build/demo"), withIntermediateDirectories: true)
        try files.createSymbolicLink(at: directory.appending(path: "Fixtures"), withDestinationURL: FixturePaths.fixtures)
        try files.createSymbolicLink(at: directory.appending(path: "tools"), withDestinationURL: FixturePaths.root.appending(path: "tools"))
        try files.createSymbolicLink(at: directory.appending(path: ".build/debug/decaf"), withDestinationURL: FixturePaths.decafExecutable)
        // As tools/demo.sh makes it: good frames, an HTTP line, a zlib bomb, a good frame.
        let frames = FixturePaths.fixtures.appending(path: "frames")
        var stream = Data()
        for name in ["frame-basic/1.bin", "frame-basic/4.bin"] { stream += try Data(contentsOf: frames.appending(path: name)) }
        stream += Data("GET / HTTP/1.1\r\n".utf8)
        for name in ["zlib-bomb-default/560.bin", "frame-basic/7.bin"] { stream += try Data(contentsOf: frames.appending(path: name)) }
        try stream.write(to: directory.appending(path: ".build/demo/mixed-stream.bin"))
        return directory
    }

    /// Each document in a workspace of its own, one after another: side by side, their peers,
    /// proxies and campaigns loaded the machine past what the timing-bound commands shown (a
    /// reliable send through a peer) and the tests beside them allow.
    @Test("every command the README and the guides show with their output runs as written and ends as shown",
          .enabled(if: ExternalTool.python3.isInstalled, Comment(rawValue: ExternalTool.python3.skipReason)),
          .serialized, arguments: documents.map(\.name))
    func runsAsShown(document: String) async throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.run(Self.documents.first { $0.name == document }?.commands ?? [], in: directory)
    }

    /// Runs the transcripts of one document, with the peers and proxies it starts in the background
    /// (stopped at its end).
    static func run(_ commands: [DocumentedCommand], in directory: URL) async throws {
        var peers: [RunningChild] = []
        // The addresses the document shows its peers at, and where this run's peers listen.
        var addresses: [String: String] = [:]
        for command in commands where command.isTranscript {
            guard let words = command.line.pipeline.first, DocumentedCommand.isDecaf(words) else { continue }
            let arguments = words.dropFirst().map { addresses[$0] ?? $0 }
            if command.line.background {
                let peer = try RunningChild(FixturePaths.decafExecutable, arguments, in: directory)
                peers.append(peer)
                let line = try await peer.firstLine()
                if let shown = command.shown.first, shown.hasPrefix("listening on ") {
                    addresses[String(shown.dropFirst("listening on ".count))] = String(line.dropFirst("listening on ".count))
                }
                continue
            }
            // Verdicts on time may differ on a machine the other tests keep busy: a run that does
            // not end as shown is run again, twice at most; a difference that stays fails.
            var difference: String?
            for _ in 1...3 {
                let run = try await ChildProcess.run(FixturePaths.decafExecutable, arguments, in: directory, limit: .seconds(300))
                difference = Self.difference(run, from: command, addresses: addresses)
                if difference == nil { break }
            }
            if let difference { Issue.record("\(command): \(difference)") }
        }
        for peer in peers { _ = try await peer.stop() }
    }

    /// How `run` differs from what the README shows of `command`, or nil: the exit status; the
    /// whole error of a refused command; the whole output of the dissector; for the others, the
    /// header, the diagnosis's headline and defects, the failures and the summary line shown. Shown addresses are read as this run's.
    static func difference(_ run: ChildProcess.Run, from command: DocumentedCommand, addresses: [String: String]) -> String? {
        let output = String(decoding: run.output, as: UTF8.self), error = String(decoding: run.error, as: UTF8.self)
        let shown = command.shown.map { line in addresses.reduce(line) { $0.replacingOccurrences(of: $1.key, with: $1.value) } }
        guard !run.signalled, run.status == command.status ?? 0 else {
            return "ended with \(run.signalled ? "signal " : "status ")\(run.status), not \(command.status ?? 0): \(error.prefix(300))"
        }
        if run.status == 2 {
            return error == shown.joined(separator: "\n") + "\n" ? nil : "printed \(error)"
        }
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if ["dissect", "monitor"].contains(command.line.pipeline.first?.dropFirst().first) {
            return Array(lines.reversed().drop(while: \.isEmpty).reversed()) == shown ? nil : "printed\n\(output)"
        }
        let checked = shown.filter {
            $0.hasPrefix("decaf-conform ") || $0.hasPrefix("FAIL ") || $0.contains(" cases: ") || $0.hasPrefix("DEFECT ") || $0.contains(" explain")
                && !$0.hasPrefix(" ")
        }
        let printed = lines.filter { $0.hasPrefix("FAIL ") || $0.hasPrefix("TIMEOUT ") || $0.hasPrefix("UNSUPPORTED ") || $0.contains(" cases: ") }
        return checked.first { !lines.contains($0) }.map { "did not print \($0); it printed \(printed.prefix(6))" }
    }
}
