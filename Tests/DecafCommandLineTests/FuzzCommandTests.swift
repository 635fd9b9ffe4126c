import DecafTestSupport
import Foundation
import Testing

/// `decaf fuzz decoder` against Decaf's own codec testee: each planted fault found from the
/// golden corpus with a small reproducer that replays, nothing found in the faultless testee, the
/// same inputs for the same seed, and bad input to the fuzzer itself refused in one line. One
/// campaign at a time: each keeps a core busy, and the timing-bound suites running beside them
/// (the server suite against the reference peer) must not be starved.
@Suite("decaf fuzz", .serialized)
struct FuzzCommandTests {
    static var testee: [String] { [FixturePaths.decafExecutable.path, "testee", "decoder"] }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The saved findings of a run, as JSON objects.
    static func findings(in directory: URL) throws -> [[String: Any]] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted().map { name in
            try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appending(path: name))) as? [String: Any] ?? [:]
        }
    }

    /// Each fault, the oracle that must fire, the largest reproducer acceptable (a header and a
    /// few fields), and the seed. The same seed gives the same inputs, so the input that sets a
    /// fault off is fixed: these seeds reach theirs in 304, 1,239, 878 and 92 inputs (the last
    /// with a TEXT value edited inside a compressed body, or an invalid one compressed). The
    /// campaign is bounded by a count of inputs, not by time: the debug build under the whole test
    /// run's load sent only 60 inputs a second once (800 idle), and a finding's own time, asserted
    /// under 60 s, reached 70 s when two test runs shared the machine.
    static let planted: [(fault: String, oracle: String, atMost: Int, seed: String)] = [
        ("crash-on-deep-empty-text", "crash", 64, "1"),
        ("hang-at-inflate-limit", "hang", 400, "2"),
        ("accepts-short-zlib-body", "disagreement", 200, "9"),
        ("crash-on-compressed-invalid-text", "crash", 64, "1"),
    ]

    /// Run from CI or into a file, a campaign once printed nothing until it ended: no progress line
    /// (only a terminal got one) and its findings buffered with the rest of standard output.
    @Test("with output to a pipe, a progress line comes every 10 s and each finding's report as it is found")
    func watchable() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let campaign = try RunningChild(decaf: ["fuzz", "decoder", "--duration", "90s", "--findings", directory.path, "--"]
                                        + Self.testee + ["--mistake", "checksum-little-endian"])
        // Found on the first inputs, reported before the campaign's end (90 s away).
        let report = try await campaign.outputLine(containing: "DISAGREEMENT", limit: .seconds(45))
        #expect(report.contains("CHECKSUM_MISMATCH"), "\(report)")
        let progress = try await campaign.errorLine(containing: "fuzz decoder: ", limit: .seconds(15))
        #expect(progress.contains(" inputs in ") && progress.contains("distinct answers"), "\(progress)")
        let stopped = try await campaign.stop()
        let errors = String(decoding: stopped.error, as: UTF8.self)
        #expect(stopped.status == 130 && !stopped.signalled, "\(errors)")
        #expect(!errors.contains("\u{1B}["), "no terminal escapes where no terminal is")
    }

    @Test("each planted fault is found within 4,000 inputs, minimized, once, and its reproducer replays", arguments: planted.indices)
    func plantedFault(index: Int) async throws {
        let (fault, oracle, atMost, seed) = Self.planted[index]
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let findings = directory.appending(path: "findings")
        // A 64 KiB body limit keeps the bombs cheap; the hang's timeout is short, and it is
        // confirmed by asking again before it counts.
        let run = try await DecafProcess.run(["fuzz", "decoder", "--runs", "4000", "--seed", seed, "--max-findings", "1", "--body-limit", "65536",
                                              "--timeout", "2s", "--findings", findings.path, "--"] + Self.testee + ["--fault", fault], limit: .seconds(300))
        #expect(run.status == 1, "\(run.output)\(run.error)")
        let saved = try Self.findings(in: findings)
        #expect(saved.count == 1, "one fault, one finding: \(saved.map { $0["signature"] ?? "" })")
        let finding = try #require(saved.first)
        #expect(finding["oracle"] as? String == oracle)
        let length = finding["length"] as? Int ?? .max
        #expect(length <= atMost, "the reproducer is \(length) bytes")
        #expect(run.output.contains("\(oracle.uppercased()):"))
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: findings.path).first { $0.hasSuffix(".json") })
        let replay = try await DecafProcess.run(["fuzz", "replay", findings.appending(path: name).path, "--timeout", "2s", "--"] + Self.testee + ["--fault", fault])
        #expect(replay.status == 1)
        #expect(replay.output.contains("\(oracle.uppercased()) again"), "\(replay.output)\(replay.error)")
        // The faultless testee answers the same input as the brief does.
        let fixed = try await DecafProcess.run(["fuzz", "replay", findings.appending(path: name).path, "--timeout", "2s", "--"] + Self.testee)
        #expect(fixed.status == 0, "\(fixed.output)\(fixed.error)")
        // The saved bytes are a frame decaf dissect shows.
        let shown = try await DecafProcess.run(["dissect", "-V", findings.appending(path: name.replacingOccurrences(of: ".json", with: ".bin")).path])
        #expect(shown.output.contains("Frame 1"))
    }

    /// The host-order checksum shows on nearly every input (each valid checksum is refused, each
    /// byte-swapped one taken) with many judge's reasons: one defect, one finding.
    @Test("a codec with one catalogued defect gives one finding, named by the defect, whatever inputs show it")
    func oneFindingPerDefect() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await DecafProcess.run(["fuzz", "decoder", "--runs", "1500", "--body-limit", "65536", "--findings", directory.path, "--"]
                                             + Self.testee + ["--mistake", "checksum-little-endian"], limit: .seconds(300))
        #expect(run.status == 1, "\(run.output)\(run.error)")
        let saved = try Self.findings(in: directory)
        #expect(saved.map { $0["signature"] as? String } == ["defect checksum-little-endian"], "\(saved.map { $0["signature"] ?? "" })")
        #expect(run.output.contains("Defect checksum-little-endian: the testee reads and writes the checksum in host byte order (little-endian)"))
        #expect(run.output.contains("Breaks CRC-1"))
    }

    /// With a 64 KiB body limit, so a bomb is cheap and a loaded machine does not make the debug
    /// testee slower than the timeout.
    @Test("the faultless testee gives no finding, and the reference Python testee none either")
    func noFalsePositives() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, testee) in [Self.testee, ["python3", FixturePaths.root.appending(path: "tools/reference/testee.py").path]].enumerated() {
            let run = try await DecafProcess.run(["fuzz", "decoder", "--runs", "3000", "--seed", "\(index + 3)", "--body-limit", "65536", "--findings",
                                                  directory.appending(path: "f\(index)").path, "--"] + testee, limit: .seconds(300))
            #expect(run.status == 0, "\(testee.last ?? ""): \(run.output)\(run.error)")
            #expect(run.output.contains("3000 inputs"))
        }
    }

    @Test("the same seed gives the same inputs; another seed, others")
    func sameSeedSameInputs() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func requests(seed: Int, log: String) async throws -> String {
            let path = directory.appending(path: log).path
            let command = "tee -a '\(path)' | '\(FixturePaths.decafExecutable.path)' testee decoder"
            // A 64 KiB limit keeps the bombs cheap: a 10 MiB one answered late on a loaded machine is
            // asked again (the hang check), and the log then holds a request twice.
            let run = try await DecafProcess.run(["fuzz", "decoder", "--runs", "300", "--seed", "\(seed)", "--body-limit", "65536", "--findings",
                                                  directory.appending(path: "findings").path, "--", "sh", "-c", command])
            #expect(run.status == 0, "\(run.output)\(run.error)")
            return try String(contentsOfFile: path, encoding: .utf8)
        }
        let first = try await requests(seed: 9, log: "a")
        #expect(first.split(separator: "\n").count == 301, "the probe (a plain DATA frame), then the 300 inputs")
        #expect(try await requests(seed: 9, log: "b") == first)
        #expect(try await requests(seed: 10, log: "c") != first)
    }

    @Test("bad input to the fuzzer is one line and exit 2", arguments: [
        (["fuzz", "decoder", "--runs", "10", "--", "no-such-testee-command"], "cannot"),
        (["fuzz", "decoder", "--runs", "10", "--corpus", "/nonexistent/corpus", "--", "true"], "--corpus /nonexistent/corpus"),
        (["fuzz", "decoder", "--runs", "0", "--", "true"], "--runs"),
        (["fuzz", "decoder", "--duration", "nan", "--", "true"], "--duration"),
        (["fuzz", "decoder", "--runs", "5"], "after --"),
        (["fuzz", "replay", "/nonexistent/finding.json", "--", "true"], "cannot be read"),
        (["fuzz", "client", "--runs", "10", "--", "no-such-testee-command"], "cannot"),
        (["fuzz", "client", "--runs", "10", "--", "true"], "never connected"),
        (["fuzz", "client", "--runs", "10", "--jobs", "0", "--", "true"], "--jobs"),
        (["fuzz", "client", "--runs", "5"], "after --"),
        (["fuzz", "replay", "/nonexistent/finding.json", "--client"], "after --"),
        // A report file that could never be written is refused before the campaign, not after it.
        (["fuzz", "decoder", "--runs", "10", "--junit", "/dev/null/reports/junit.xml", "--", "true"], "'--junit <file>': /dev/null is not a directory"),
        (["fuzz", "client", "--runs", "10", "--html", "/dev/null/report.html", "--", "true"], "'--html <file>': /dev/null is not a directory"),
        (["fuzz", "decoder", "--runs", "10", "--junit", "/tmp", "--", "true"], "'--junit <file>': a directory"),
    ])
    func badInput(arguments: [String], says: String) async throws {
        let run = try await DecafProcess.run(arguments, limit: .seconds(60))
        #expect(run.status == 2, "\(arguments): \(run.output)\(run.error)")
        let lines = run.error.split(separator: "\n").filter { !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") && !$0.isEmpty }
        #expect(lines.count == 1, "\(arguments): \(run.error)")
        #expect(run.error.contains(says), "\(arguments): \(run.error)")
    }

    @Test("an empty corpus or a damaged capture as the corpus is one line and exit 2")
    func badCorpus() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appending(path: "empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data().write(to: empty.appending(path: "nothing.bin"))
        let damaged = directory.appending(path: "damaged.pcap")
        try Data([0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0]).write(to: damaged)
        for corpus in [empty, damaged] {
            let run = try await DecafProcess.run(["fuzz", "decoder", "--runs", "10", "--corpus", corpus.path, "--"] + Self.testee)
            #expect(run.status == 2, "\(corpus.lastPathComponent): \(run.output)\(run.error)")
            #expect(run.error.contains("--corpus"), "\(run.error)")
        }
    }
}
