import DecafTestSupport
import Foundation
import Testing

/// The C reference client (tools/reference/client.c), built as `make client-c` builds it: a whole
/// client, which passes every case of `decaf conform client`; with `--plant` it dies of the codec's two
/// planted mistakes, which `decaf fuzz client` finds, each once; built with afl-clang-fast,
/// `decaf fuzz client --coverage` reads its edges.
@Suite("the C reference client", .serialized, .enabled(if: ExternalTool.cc.isInstalled, Comment(rawValue: ExternalTool.cc.skipReason)))
struct CClientTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "decaf-client-c-\(UUID().uuidString)")
    }

    @Test("it compiles without a warning and passes every case of decaf conform client")
    func conforms() async throws {
        let client = try await CTesteeTests.built("client")
        defer { try? FileManager.default.removeItem(at: client) }
        let run = try await DecafProcess.run(["conform", "client", "--", client.path], limit: .seconds(300))
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("97 cases: 97 passed"), "\(run.output.suffix(600))")
    }

    @Test("with --plant, decaf fuzz client finds both planted crashes, each once, told apart by the client's last words")
    func plantedCrashes() async throws {
        let client = try await CTesteeTests.built("client")
        let directory = Self.directory()
        defer {
            try? FileManager.default.removeItem(at: client)
            try? FileManager.default.removeItem(at: directory)
        }
        // Seed 5 sets off both within 150 inputs (a loaded machine once sent 10 a second).
        let run = try await DecafProcess.run(["fuzz", "client", "--seed", "5", "--runs", "1000", "--max-findings", "2", "--jobs", "2", "--findings", directory.path,
                                              "--", client.path, "--plant"], limit: .seconds(300))
        CTesteeTests.foundBothPlantedCrashes(run)
    }

    @Test("built with afl-clang-fast, decaf fuzz client --coverage gives each job's client a map, reads its edges and keeps the inputs that reach new ones",
          .enabled(if: ExternalTool.aflClangFast.isInstalled, Comment(rawValue: ExternalTool.aflClangFast.skipReason)))
    func coverage() async throws {
        let client = try await CTesteeTests.built("client", with: .aflClangFast)
        let directory = Self.directory()
        defer {
            try? FileManager.default.removeItem(at: client)
            try? FileManager.default.removeItem(at: directory)
        }
        let run = try await DecafProcess.run(["fuzz", "client", "--coverage", "--seed", "1", "--runs", "300", "--jobs", "2", "--findings", directory.path, "--", client.path],
                                             limit: .seconds(300))
        try CTesteeTests.readCoverage(run, of: "client")
    }

    @Test("a client built without AFL++ is fuzzed without coverage, and --coverage says so once and how to build one")
    func coverageOfPlainClient() async throws {
        let client = try await CTesteeTests.built("client")
        let directory = Self.directory()
        defer {
            try? FileManager.default.removeItem(at: client)
            try? FileManager.default.removeItem(at: directory)
        }
        let run = try await DecafProcess.run(["fuzz", "client", "--coverage", "--seed", "1", "--runs", "50", "--findings", directory.path, "--", client.path],
                                             limit: .seconds(300))
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let notes = run.error.split(separator: "\n").filter { $0.hasPrefix("--coverage: ") }
        #expect(notes.count == 1 && notes[0].contains("afl-clang-fast") && notes[0].contains("make deps"), "\(run.error)")
        #expect(run.output.contains("no coverage (the client is not instrumented)") && !run.output.contains(" edges"), "\(run.output)")
    }
}
