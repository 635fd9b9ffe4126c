import DecafTestSupport
import Foundation
import Testing

/// The C reference testee (tools/reference/testee.c), built as `make testee-c` builds it: a
/// correct codec that passes every codec case, and with `--plant` two rare mistakes the decoder
/// fuzzer finds, each a finding of its own: one behind the checksum, one inside a zlib body.
@Suite("the C reference testee", .serialized, .enabled(if: ExternalTool.cc.isInstalled, Comment(rawValue: ExternalTool.cc.skipReason)))
struct CTesteeTests {
    /// The testee, compiled as `make testee-c` compiles it, warnings as errors, into a file of
    /// the test's own (a C compile is a fraction of a second).
    static func built() async throws -> URL {
        let output = FileManager.default.temporaryDirectory.appending(path: "decaf-testee-c-\(UUID().uuidString)")
        let source = FixturePaths.root.appending(path: "tools/reference/testee.c")
        let compiler = URL(filePath: try #require(ExternalTool.cc.path))
        let run = try await ChildProcess.run(compiler, ["-std=c11", "-O2", "-Wall", "-Wextra", "-pedantic", "-Werror", "-o", output.path, source.path, "-lz"])
        #expect(run.status == 0, "\(String(decoding: run.error, as: UTF8.self))")
        return output
    }

    @Test("it compiles without a warning and passes every case of decaf conform decoder")
    func conforms() async throws {
        let testee = try await Self.built()
        defer { try? FileManager.default.removeItem(at: testee) }
        let run = try await DecafProcess.run(["conform", "decoder", "--", testee.path], limit: .seconds(300))
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains(" cases: ") && !run.output.contains("FAIL"), "\(run.output)")
    }

    @Test("with --plant, decaf fuzz decoder finds both planted crashes, each once, told apart by the testee's last words")
    func plantedCrashes() async throws {
        let testee = try await Self.built()
        defer { try? FileManager.default.removeItem(at: testee) }
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-testee-c-findings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await DecafProcess.run(["fuzz", "decoder", "--seed", "1", "--runs", "1500", "--findings", directory.path, "--", testee.path, "--plant"],
                                             limit: .seconds(300))
        #expect(run.status == 1, "\(run.output)\(run.error)")
        let crashes = run.output.split(separator: "\n").filter { $0.hasPrefix("CRASH:") }
        #expect(crashes.count == 2, "\(run.output)")
        #expect(crashes.contains { $0.contains("a TEXT in a zlib body that is not UTF-8") }, "\(run.output)")
        #expect(crashes.contains { $0.contains("an empty TEXT four containers deep") }, "\(run.output)")
    }
}
