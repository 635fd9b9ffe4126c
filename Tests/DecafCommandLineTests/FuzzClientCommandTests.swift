import DecafSession
import DecafTestSupport
import Foundation
import Testing

/// `decaf fuzz client` against the reference client (`decaf testee client`): each rare planted
/// fault (which `decaf conform client` passes) found from the golden corpus with a small
/// reproducer that replays, and nothing found in the faultless client. One campaign at a time,
/// as for the codec and the server.
@Suite("decaf fuzz client", .serialized)
struct FuzzClientCommandTests {
    static let decaf = FixturePaths.decafExecutable.path
    static let limits = ["--body-limit", "65536"]

    /// Each rare fault, the oracle that must fire, the largest reproducer acceptable, how long an
    /// input's case may take (a hang costs it at each try of the minimizer), and the seed.
    /// The same seed gives the same inputs, so a campaign's length in inputs is fixed, and each
    /// seed reaches its fault within the campaign's 1,000 (the invalid TEXT inside a compressed
    /// body at the 128th). The campaign is bounded by a count of inputs, not by time, which a
    /// loaded machine stretches.
    static let planted: [(fault: String, oracle: String, atMost: Int, timeout: String, seed: String)] = [
        ("crash-on-deep-empty-text", "crash", 80, "3s", "3"),
        ("hang-at-inflate-limit", "hang", 400, "2s", "1"),
        ("refuse-empty-deep-container", "disagreement", 80, "3s", "2"),
        ("crash-on-compressed-invalid-text", "crash", 80, "3s", "1"),
        // A fault of a session's later messages: found in a client kept for many inputs, and
        // reported with the one input it needs sent before.
        ("crash-on-later-empty-text", "crash", 80, "3s", "1"),
    ]

    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "decaf-fuzz-client-\(UUID().uuidString)")
    }

    /// One run of the whole catalog with the three at once: a case that set any of them off would fail.
    @Test("decaf conform client passes a client with every rare planted fault: its cases never send what sets one off")
    func conformPasses() async throws {
        let conform = try await DecafProcess.run(["conform", "client", "--", Self.decaf, "testee", "client"] + Self.planted.flatMap { ["--fault", $0.fault] },
                                                 limit: .seconds(300))
        #expect(conform.status == 0, "decaf conform client catches a rare fault: \(conform.output.suffix(600))")
        // A failure while the suite itself was held up, even run alone, is the loaded machine's
        // (the report says so); any other would be a planted fault set off.
        let failures = conform.output.components(separatedBy: "\n\n").filter { $0.hasPrefix("FAIL ") || $0.contains("\nFAIL ") }
        #expect(failures.allSatisfy { $0.contains("the suite itself was held up") } && failures.count <= HeldUpAllowance.cases,
                "\(conform.output.suffix(600))")
    }

    @Test("decaf fuzz client finds each rare planted fault within 1,000 inputs, minimized, once; it replays", arguments: planted.indices)
    func plantedFault(index: Int) async throws {
        let (fault, oracle, atMost, timeout, seed) = Self.planted[index]
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let faulty = [Self.decaf, "testee", "client", "--fault", fault] + Self.limits
        let junit = directory.appending(path: "report.xml").path
        let run = try await DecafProcess.run(["fuzz", "client", "--runs", "1000", "--max-findings", "1", "--jobs", "4", "--timeout", timeout, "--seed", seed,
                                              "--findings", directory.path, "--junit", junit] + Self.limits + ["--"] + faulty, limit: .seconds(300))
        #expect(run.status == 1, "\(run.output)\(run.error)")
        // The JUnit report, as decaf conform writes it: the campaign, and the finding as a failure.
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(report.contains("<testsuites name=\"decaf fuzz client\" tests=\"2\" failures=\"1\""), "\(report.prefix(400))")
        #expect(report.contains("<testcase name=\"fuzz.finding-1-\(oracle)\" classname=\"decaf.fuzz."))
        let finding = try SavedFinding.only(in: directory)
        let name = finding.name
        #expect(finding.oracle == oracle)
        #expect(finding.length ?? .max <= atMost, "the reproducer is \(finding.length.map(String.init) ?? "?") bytes")
        #expect(run.output.contains("\(oracle.uppercased()): Sent "))
        #expect(run.output.contains("replay: decaf fuzz replay \(directory.path)/\(name) --client -- "), "\(run.output)")
        #expect(run.output.contains("to a client sent 1 input (") == (fault == "crash-on-later-empty-text"), "\(run.output)")

        let replay = try await DecafProcess.run(["fuzz", "replay", directory.appending(path: name).path, "--timeout", timeout, "--client", "--"] + faulty)
        #expect(replay.status == 1)
        #expect(replay.output.contains("\(oracle.uppercased()) again"), "\(replay.output)\(replay.error)")
        // Without --client too: the finding says it is a client's. Taken for a codec testee's, the
        // client's exit for want of DECAF_CONFORM_HOST was reported as a CRASH.
        let fixed = [Self.decaf, "testee", "client"] + Self.limits
        let answered = try await DecafProcess.run(["fuzz", "replay", directory.appending(path: name).path, "--timeout", timeout, "--"] + fixed)
        #expect(answered.status == 0 && answered.output.contains("the client answered as the brief does"), "\(answered.output)\(answered.error)")
    }

    @Test("the faultless reference client gives no finding; --json prints the campaign as decaf conform prints a run")
    func noFalsePositives() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await DecafProcess.run(["fuzz", "client", "--runs", "300", "--jobs", "4", "--seed", "7", "--json", "--findings", directory.path] + Self.limits
                                             + ["--", Self.decaf, "testee", "client"] + Self.limits, limit: .seconds(300))
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let json = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
        #expect(json["tool"] as? String == "decaf fuzz" && json["kind"] as? String == "client")
        #expect(json["exitStatus"] as? Int == 0)
        let cases = json["cases"] as? [[String: Any]] ?? []
        #expect(cases.map { $0["id"] as? String } == ["fuzz.campaign"])
        #expect((cases.first?["summary"] as? String)?.hasPrefix("fuzz client: 300 inputs") == true, "\(cases)")
    }

    /// A client with every choice the brief leaves it is no finding either: one that allows a
    /// repeated tag (TLV-3) once gave one at the first frame with two TEXT fields.
    @Test("a client with every legal choice gives no finding")
    func legalChoices() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let choices = ClientChoice.allCases.flatMap { ["--choice", $0.rawValue] }
        let run = try await DecafProcess.run(["fuzz", "client", "--runs", "200", "--jobs", "4", "--seed", "7", "--findings", directory.path] + Self.limits
                                             + ["--", Self.decaf, "testee", "client"] + choices + Self.limits, limit: .seconds(300))
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("fuzz client: 200 inputs"), "\(run.output)")
    }

    /// A job keeps its client while it reconnects (AFLNet-style), so a campaign starts a handful of
    /// processes, not one per input; `--process-per-input` starts one for each. The command counts
    /// its starts in a file.
    @Test("a client is kept for the inputs after its first while it comes back; --process-per-input starts one for each")
    func sessions() async throws {
        let directory = Self.directory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let starts = directory.appending(path: "starts").path
        let counted = ["sh", "-c", "echo started >> \"$1\"; shift; exec \"$@\"", "sh", starts, Self.decaf, "testee", "client"] + Self.limits
        func started() -> Int { ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").split(separator: "\n").count }
        let kept = try await DecafProcess.run(["fuzz", "client", "--runs", "200", "--jobs", "2", "--seed", "7", "--findings", directory.appending(path: "kept").path]
                                              + Self.limits + ["--"] + counted, limit: .seconds(300))
        #expect(kept.status == 0, "\(kept.output)\(kept.error)")
        #expect(kept.output.contains("fuzz client: 200 inputs"), "\(kept.output)")
        // The probe's client, and one a job; a few more if a loaded machine made a case run out of time.
        #expect(started() <= 12, "\(started()) clients started for 200 inputs")
        try FileManager.default.removeItem(atPath: starts)
        let each = try await DecafProcess.run(["fuzz", "client", "--process-per-input", "--runs", "20", "--jobs", "2", "--seed", "7",
                                               "--findings", directory.appending(path: "each").path] + Self.limits + ["--"] + counted, limit: .seconds(300))
        #expect(each.status == 0, "\(each.output)\(each.error)")
        #expect(started() == 21, "the probe's client and one for each input")
    }
}
