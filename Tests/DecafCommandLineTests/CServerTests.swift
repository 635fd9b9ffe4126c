import DecafTestSupport
import Foundation
import Testing

/// The C reference server (tools/reference/server.c), built as `make server-c` builds it: a
/// correct server that passes every case of `decaf conform server`; with `--plant` it dies of the
/// codec's two planted mistakes, and `decaf fuzz server` lays each crash at the door of the input
/// that caused it; built with afl-clang-fast, `decaf fuzz server --coverage` reads its edges.
@Suite("the C reference server", .serialized, .enabled(if: ExternalTool.cc.isInstalled, Comment(rawValue: ExternalTool.cc.skipReason)))
struct CServerTests {
    /// The server, started on a port of its own with `arguments`, and its address.
    static func started(_ server: URL, _ arguments: [String] = []) async throws -> (RunningChild, String) {
        let child = try RunningChild(server, ["--listen", "127.0.0.1:0"] + arguments)
        let line = try await child.firstLine()
        return (child, String(line.dropFirst("listening on ".count)))
    }

    /// `decaf fuzz server` on a free port, starting `server` there with `arguments` (`--restart`),
    /// and `campaign`'s options; the findings go to `directory`.
    static func fuzz(_ server: URL, _ arguments: [String], _ campaign: [String], findings directory: URL) async throws -> DecafProcess.Run {
        let port = try FuzzServerCommandTests.freePort()
        let restart = ([server.path] + arguments + ["--listen", "127.0.0.1:\(port)"]).joined(separator: " ")
        return try await DecafProcess.run(["fuzz", "server", "127.0.0.1:\(port)", "--restart", restart, "--findings", directory.path] + campaign, limit: .seconds(300))
    }

    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "decaf-server-c-\(UUID().uuidString)")
    }

    @Test("it compiles without a warning and passes every case of decaf conform server")
    func conforms() async throws {
        let server = try await CTesteeTests.built("server")
        defer { try? FileManager.default.removeItem(at: server) }
        let (child, address) = try await Self.started(server)
        let run = try await DecafProcess.run(["conform", "server", address], limit: .seconds(300))
        _ = try? await child.stop()
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("223 cases: 222 passed, 1 unsupported"), "\(run.output.suffix(600))")
    }

    /// Seeds whose campaigns once blamed a crash on the wrong input: an earlier one killed the
    /// server while its refusal, a close without an ERROR, passed, and the next input (a plain
    /// DATA frame, a frame refused from its header) found it dead.
    @Test("with --plant, each crash decaf fuzz server reports is its input's: sent alone to a fresh server, it kills it again",
          arguments: [2, 3])
    func crashesAreTheInputs(seed: Int) async throws {
        let server = try await CTesteeTests.built("server")
        let directory = Self.directory()
        defer {
            try? FileManager.default.removeItem(at: server)
            try? FileManager.default.removeItem(at: directory)
        }
        let run = try await Self.fuzz(server, ["--plant"], ["--runs", "1500", "--seed", "\(seed)", "--timeout", "3s"], findings: directory)
        #expect(run.status == 1, "\(run.output)\(run.error)")
        let crashes = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix("-crash.json") }
        #expect(!crashes.isEmpty, "\(run.output)")
        for crash in crashes {
            let (child, address) = try await Self.started(server, ["--plant"])
            let replay = try await DecafProcess.run(["fuzz", "replay", directory.appending(path: crash).path, "--timeout", "2s", "--server", address])
            _ = try? await child.stop()
            #expect(replay.output.contains("CRASH again"), "\(crash): \(replay.output)\(replay.error)")
        }
    }

    @Test("built with afl-clang-fast, decaf fuzz server --coverage starts it with a map, reads its edges and keeps the inputs that reach new ones",
          .enabled(if: ExternalTool.aflClangFast.isInstalled, Comment(rawValue: ExternalTool.aflClangFast.skipReason)))
    func coverage() async throws {
        let server = try await CTesteeTests.built("server", with: .aflClangFast)
        let directory = Self.directory()
        defer {
            try? FileManager.default.removeItem(at: server)
            try? FileManager.default.removeItem(at: directory)
        }
        let run = try await Self.fuzz(server, [], ["--coverage", "--runs", "300", "--seed", "1"], findings: directory)
        try CTesteeTests.readCoverage(run, of: "server")
    }

    @Test("a server built without AFL++ is fuzzed without coverage, and --coverage says so once and how to build one")
    func coverageOfPlainServer() async throws {
        let server = try await CTesteeTests.built("server")
        let directory = Self.directory()
        defer {
            try? FileManager.default.removeItem(at: server)
            try? FileManager.default.removeItem(at: directory)
        }
        let run = try await Self.fuzz(server, [], ["--coverage", "--runs", "50", "--seed", "1"], findings: directory)
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let notes = run.error.split(separator: "\n").filter { $0.hasPrefix("--coverage: ") }
        #expect(notes.count == 1 && notes[0].contains("afl-clang-fast") && notes[0].contains("make deps"), "\(run.error)")
        #expect(run.output.contains("no coverage (the server is not instrumented)") && !run.output.contains(" edges"), "\(run.output)")
    }

    @Test("--coverage without --restart, or with --jobs, is one line and exit 2", arguments: [[], ["--restart", "true", "--jobs", "2"]])
    func coverageNeeds(_ arguments: [String]) async throws {
        let port = try FuzzServerCommandTests.freePort()
        let run = try await DecafProcess.run(["fuzz", "server", "127.0.0.1:\(port)", "--coverage", "--runs", "10"] + arguments)
        #expect(run.status == 2, "\(run.output)\(run.error)")
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(arguments.isEmpty ? "--coverage needs --restart COMMAND" : "leave out --jobs"), "\(run.error)")
    }
}
