import DecafTestSupport
import Foundation
import Testing

/// The C reference testee (tools/reference/testee.c), built as `make testee-c` builds it: a
/// correct codec that passes every codec case, and with `--plant` two rare mistakes the decoder
/// fuzzer finds, each a finding of its own: one behind the checksum, one inside a zlib body.
@Suite("the C reference testee", .serialized, .enabled(if: ExternalTool.cc.isInstalled, Comment(rawValue: ExternalTool.cc.skipReason)))
struct CTesteeTests {
    /// The testee (or with `program`, another of tools/reference: `server`), compiled as `make
    /// testee-c` compiles it, with the codec, warnings as errors, into a file of the test's own (a
    /// C compile is a fraction of a second).
    static func built(_ program: String = "testee", with tool: ExternalTool = .cc) async throws -> URL {
        let output = FileManager.default.temporaryDirectory.appending(path: "decaf-\(program)-c-\(UUID().uuidString)")
        let sources = [program, "codec"].map { FixturePaths.root.appending(path: "tools/reference/\($0).c").path }
        let compiler = URL(filePath: try #require(tool.path))
        let run = try await ChildProcess.run(compiler, ["-std=c11", "-O2", "-Wall", "-Wextra", "-pedantic", "-Werror", "-o", output.path] + sources + ["-lz"])
        #expect(run.status == 0, "\(String(decoding: run.error, as: UTF8.self))")
        return output
    }

    /// A path of the test's own under the temporary directory, for what a run writes (findings,
    /// a sync directory): never a fixed path, which a run as root would create for every later test.
    static func scratch(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appending(path: "decaf-c-\(name)-\(UUID().uuidString)")
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
        Self.foundBothPlantedCrashes(run)
    }

    /// Holds a campaign against a C reference program with `--plant` to have found the codec's two
    /// planted crashes, each once, told apart by the last words.
    static func foundBothPlantedCrashes(_ run: DecafProcess.Run) {
        #expect(run.status == 1, "\(run.output)\(run.error)")
        let crashes = run.output.split(separator: "\n").filter { $0.hasPrefix("CRASH:") }
        #expect(crashes.count == 2, "\(run.output)")
        #expect(crashes.contains { $0.contains("a TEXT in a zlib body that is not UTF-8") }, "\(run.output)")
        #expect(crashes.contains { $0.contains("an empty TEXT four containers deep") }, "\(run.output)")
    }

    @Test("built with afl-clang-fast, decaf fuzz decoder --coverage reads its edges and keeps the inputs that reach new ones",
          .enabled(if: ExternalTool.aflClangFast.isInstalled, Comment(rawValue: ExternalTool.aflClangFast.skipReason)))
    func coverage() async throws {
        let testee = try await Self.built(with: .aflClangFast)
        let findings = Self.scratch("findings")
        defer {
            try? FileManager.default.removeItem(at: testee)
            try? FileManager.default.removeItem(at: findings)
        }
        let run = try await DecafProcess.run(["fuzz", "decoder", "--coverage", "--seed", "1", "--runs", "300", "--findings", findings.path, "--", testee.path],
                                             limit: .seconds(300))
        try Self.readCoverage(run, of: "decoder")
    }

    /// Holds a campaign against an instrumented C reference program (`target`: decoder, server,
    /// client) to have ended cleanly, read more than 20 edges and kept inputs for them.
    static func readCoverage(_ run: DecafProcess.Run, of target: String) throws {
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let summary = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("fuzz \(target): ") }, "\(run.output)")
        let edges = try #require(summary.firstMatch(of: /, (\d+) edges \((\d+) inputs kept\)/), "\(summary)")
        #expect(Int(edges.1)! > 20 && Int(edges.2)! > 0, "\(summary)")
        #expect(!run.error.contains("not instrumented"))
    }

    @Test("a testee built without AFL++ is fuzzed without coverage, and --coverage says so once and how to build one")
    func coverageOfPlainTestee() async throws {
        let testee = try await Self.built()
        let findings = Self.scratch("findings")
        defer {
            try? FileManager.default.removeItem(at: testee)
            try? FileManager.default.removeItem(at: findings)
        }
        let run = try await DecafProcess.run(["fuzz", "decoder", "--coverage", "--seed", "1", "--runs", "50", "--findings", findings.path, "--", testee.path],
                                             limit: .seconds(300))
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let notes = run.error.split(separator: "\n").filter { $0.hasPrefix("--coverage: ") }
        #expect(notes.count == 1 && notes[0].contains("afl-clang-fast") && notes[0].contains("make deps"), "\(run.error)")
        #expect(run.output.contains("no coverage (the testee is not instrumented)") && !run.output.contains(" edges"), "\(run.output)")
    }

    /// The mark a fuzzer keeps in `DIR/NAME/.synced/PEER` of the next entry of PEER's queue it will
    /// read (afl-fuzz's layout): above 0 once it has read some.
    static func mark(in directory: URL, of name: String, reading peer: String) -> UInt32 {
        guard let data = FileManager.default.contents(atPath: directory.appending(path: "\(name)/.synced/\(peer)").path), data.count == 4 else { return 0 }
        return data.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    @Test("two decaf fuzz decoder --sync-dir campaigns and an afl-fuzz -S on one directory read each other's queues",
          .enabled(if: ExternalTool.aflClangFast.isInstalled && ExternalTool.aflFuzz.isInstalled, Comment(rawValue: ExternalTool.aflFuzz.skipReason)))
    func syncDirectory() async throws {
        let testee = try await Self.built(with: .aflClangFast)
        let directory = Self.scratch("sync")
        let findings = Self.scratch("findings")
        defer {
            try? FileManager.default.removeItem(at: testee)
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: findings)
        }
        func decaf(_ name: String, seed: Int, _ end: [String]) async throws -> DecafProcess.Run {
            // What is checked is the queues' exchange: a long answer wait keeps a loaded machine's
            // slow answer from being a hang finding (CI once gave one at 17 inputs a second).
            try await DecafProcess.run(["fuzz", "decoder", "--coverage", "--seed", "\(seed)", "--timeout", "30s"] + end
                                       + ["--sync-dir", directory.path, "--sync-name", name, "--findings", findings.appending(path: name).path, "--", testee.path], limit: .seconds(120))
        }
        // Side by side, reading each other's queue every second: each reads what the other queued,
        // however late a loaded machine starts one of them (a read every 10 s once missed it).
        async let first = decaf("decaf-a", seed: 1, ["--duration", "12s", "--sync-interval", "1s"])
        async let second = decaf("decaf-b", seed: 2, ["--duration", "12s", "--sync-interval", "1s"])
        let (a, b) = try await (first, second)
        #expect(a.status == 0 && b.status == 0, "\(a.error)\(b.error)")
        #expect(Self.mark(in: directory, of: "decaf-a", reading: "decaf-b") > 0 && Self.mark(in: directory, of: "decaf-b", reading: "decaf-a") > 0)

        // afl-fuzz on the same instrumented code (its --raw harness), syncing every minute: it
        // reads the decaf queues at its first sync after it has made itself the main instance.
        let seeds = directory.appending(path: "seeds")
        try FileManager.default.createDirectory(at: seeds, withIntermediateDirectories: true)
        for name in ["1", "4", "7"] {
            try FileManager.default.copyItem(at: FixturePaths.fixtures.appending(path: "frames/frame-basic/\(name).bin"), to: seeds.appending(path: "\(name).bin"))
        }
        let environment = ["AFL_SYNC_TIME=1", "AFL_IMPORT_FIRST=1", "AFL_NO_UI=1", "AFL_SKIP_CPUFREQ=1", "AFL_NO_AFFINITY=1", "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1"]
        let afl = try RunningChild(URL(filePath: "/usr/bin/env"),
                                   environment + [try #require(ExternalTool.aflFuzz.path), "-i", seeds.path, "-o", directory.path, "-S", "afl-1", "-V", "200", "--", testee.path, "--raw"])
        let deadline = ContinuousClock.now + .seconds(200)
        while Self.mark(in: directory, of: "afl-1", reading: "decaf-a") == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
        }
        let aflRun = try await afl.stop()
        #expect(Self.mark(in: directory, of: "afl-1", reading: "decaf-a") > 0 && Self.mark(in: directory, of: "afl-1", reading: "decaf-b") > 0,
                "afl-fuzz read no decaf queue: \(String(decoding: aflRun.output.suffix(600), as: UTF8.self))")

        // decaf-a again, going on with its queue: it reads afl-fuzz's.
        let again = try await decaf("decaf-a", seed: 3, ["--runs", "50"])
        #expect(again.status == 0, "\(again.error)")
        #expect(Self.mark(in: directory, of: "decaf-a", reading: "afl-1") > 0)
        #expect(again.output.contains("from other fuzzers"), "\(again.output)")
    }
}
