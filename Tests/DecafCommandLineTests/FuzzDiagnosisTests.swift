import DecafTestSupport
import Foundation
import Testing

/// `decaf fuzz server` and `decaf fuzz client` name the defect each finding is, as the codec
/// campaign does: one finding per cause (two planted mistakes that fail some inputs only together
/// are named together, not as a third defect), the rest of the inputs that showed it counted, and
/// every report led by the diagnosis. One campaign at a time.
@Suite("decaf fuzz names each finding's defect", .serialized)
struct FuzzDiagnosisTests {
    static let decaf = FixturePaths.decafExecutable.path

    /// The run's JSON report: its diagnosis's defect names, the findings it leaves unexplained, and its failures.
    static func diagnosis(_ output: String) throws -> (names: Set<String>, unexplained: [String], failures: Int) {
        let run = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let diagnosis = try #require(run["diagnosis"] as? [String: Any], "no diagnosis in \(output.prefix(400))")
        let defects = diagnosis["defects"] as? [[String: Any]] ?? []
        return (Set(defects.compactMap { $0["name"] as? String }), diagnosis["unexplained"] as? [String] ?? [], diagnosis["failures"] as? Int ?? 0)
    }

    @Test("a server with two codec mistakes: each finding named by them, the one they give only together named as both; it replays")
    func server() async throws {
        let mistakes = ["--mistake", "depth-limit-off-by-one", "--mistake", "duplicate-tags-accepted"]
        let (peer, address) = try await FuzzServerCommandTests.peer(mistakes)
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-fuzz-diagnosis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Seed 1 meets each within 150 inputs (the inputs are fixed by the seed, whatever the load).
        let run = try await DecafProcess.run(["fuzz", "server", address, "--runs", "150", "--seed", "1", "--timeout", "2s", "--json", "--findings", directory.path],
                                             limit: .seconds(300))
        #expect(run.status == 1, "\(run.error.suffix(800))")
        let (names, unexplained, failures) = try Self.diagnosis(run.output)
        #expect(names == ["depth-limit-off-by-one", "duplicate-tags-accepted"])
        #expect(unexplained.isEmpty)
        #expect(failures == 3, "one finding per cause: each mistake alone, and both together")
        let saved = try SavedFinding.all(in: directory)
        let defects = saved.map { $0.record["defects"] as? [String] ?? [] }
        #expect(Set(defects) == [["duplicate-tags-accepted"], ["depth-limit-off-by-one"], ["depth-limit-off-by-one", "duplicate-tags-accepted"]])
        #expect(run.error.contains("Defects depth-limit-off-by-one and duplicate-tags-accepted together"))

        let both = try #require(saved.first { ($0.record["defects"] as? [String])?.count == 2 })
        let replay = try await DecafProcess.run(["fuzz", "replay", directory.appending(path: both.name).path, "--timeout", "2s", "--server", address])
        _ = try? await peer.stop()
        #expect(replay.status == 1)
        #expect(replay.output.contains("\(both.oracle?.uppercased() ?? "?") again"), "\(replay.output)\(replay.error)")
    }

    @Test("a client with a planted fault: the finding is named by it, and the text ends with the defects and how often each showed")
    func client() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-fuzz-diagnosis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await DecafProcess.run(["fuzz", "client", "--runs", "250", "--seed", "1", "--jobs", "4", "--timeout", "2s", "--findings", directory.path,
                                              "--", Self.decaf, "testee", "client", "--fault", "depth-limit-three"], limit: .seconds(300))
        #expect(run.status == 1, "\(run.output)\(run.error)")
        #expect(run.output.contains("Defect depth-limit-three: the client refuses four nested containers"), "\(run.output)")
        #expect(run.output.contains("\n1 defect explains 1 of 1 finding: depth-limit-three (finding 1"), "\(run.output.suffix(400))")
        let finding = try SavedFinding.only(in: directory)
        #expect(finding.record["defects"] as? [String] == ["depth-limit-three"])
    }
}
