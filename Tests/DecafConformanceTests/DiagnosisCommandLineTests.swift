import DecafTestSupport
import Foundation
import Testing

/// The diagnosis as a user meets it: `decaf conform decoder` against a codec testee with a planted
/// mistake leads with the defect, in a report of one screen; `--verbose` keeps every case; the
/// JSON names the defect of each failure; `decaf conform coverage --targets` lists the targets.
/// `decaf conform server` and `decaf conform client` against a peer and a client with planted
/// faults, over loopback, name them.
@Suite("the diagnosis on the command line")
struct DiagnosisCommandLineTests {
    static let testee = ["--", FixturePaths.decafExecutable.path, "testee", "decoder"]

    @Test("a codec that writes the checksum in host order: the first screen names the defect and what it explains, the report under 60 lines")
    func hostOrderChecksum() async throws {
        let run = try await DecafProcess.run(["conform", "decoder"] + Self.testee + ["--mistake", "checksum-little-endian"])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 60, "\(run.output)")
        #expect(lines.count > 2 && lines[2].hasPrefix("1 defect explains ") && lines[2].hasSuffix(" failures"), "\(run.output)")
        #expect(lines[3] == "DEFECT checksum-little-endian: reads and writes the checksum in host byte order (little-endian)")
        #expect(run.output.contains("    fix: read and write the checksum big-endian"))
        #expect(run.output.contains("of them explained by the defects above"))
        let verbose = try await DecafProcess.run(["conform", "decoder", "--verbose"] + Self.testee + ["--mistake", "checksum-little-endian"])
        #expect(verbose.output.split(separator: "\n").count > 300)
    }

    @Test("the JSON report gives the diagnosis and, for each failure, the defect that explains it")
    func json() async throws {
        let run = try await DecafProcess.run(["conform", "decoder", "--json"] + Self.testee + ["--mistake", "depth-limit-off-by-one", "--mistake", "timestamp-not-checked"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let diagnosis = try #require(report["diagnosis"] as? [String: Any])
        let defects = try #require(diagnosis["defects"] as? [[String: Any]])
        #expect(defects.compactMap { $0["name"] as? String } == ["depth-limit-off-by-one", "timestamp-not-checked"])
        #expect(diagnosis["unexplained"] as? [String] == [])
        let cases = try #require(report["cases"] as? [[String: Any]])
        let failing = cases.filter { $0["verdict"] as? String == "fail" }
        #expect(!failing.isEmpty && failing.allSatisfy { $0["explainedBy"] is String })
    }

    /// The cases whose failures no defect explains, each with its verdict: under a loaded
    /// machine's timing a case may time out, which is no defect's; any other is a wrong diagnosis.
    static func unexplained(_ report: [String: Any]) throws -> [String] {
        let diagnosis = try #require(report["diagnosis"] as? [String: Any])
        let unexplained = Set(diagnosis["unexplained"] as? [String] ?? [])
        let cases = report["cases"] as? [[String: Any]] ?? []
        return cases.filter { unexplained.contains($0["id"] as? String ?? "") && $0["verdict"] as? String != "timeout" }.map { "\($0["id"] ?? ""): \($0["reason"] ?? "")" }
    }

    @Test("a server with a fault and a codec mistake, over loopback: both named, each failure explained, the cost given")
    func server() async throws {
        let peer = try RunningChild(decaf: ["peer", "--listen", "127.0.0.1:0", "--idle-timeout", "5s", "--fault", "ack-wrong-sequence",
                                            "--mistake", "depth-limit-off-by-one"])
        let address = String(try await peer.firstLine().dropFirst("listening on ".count))
        // 28 s for the debug build beside another test run; under the whole test run's load in CI it once took over 120 s.
        let run = try await DecafProcess.run(["conform", "server", address, "--idle-timeout", "5s", "--json"], limit: .seconds(300))
        _ = try await peer.stop()
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output.prefix(300))")
        let diagnosis = try #require(report["diagnosis"] as? [String: Any])
        let defects = try #require(diagnosis["defects"] as? [[String: Any]])
        #expect(defects.compactMap { $0["name"] as? String } == ["ack-wrong-sequence", "depth-limit-off-by-one"])
        #expect(try Self.unexplained(report) == [])
        #expect((diagnosis["durationMilliseconds"] as? Double ?? -1) >= 0)
    }

    @Test("a client with two faults, over loopback: both named, each failure explained")
    func client() async throws {
        // Cases that judge no follow-up's timing, which a loaded machine moves past any tolerance.
        let run = try await DecafProcess.run(["conform", "client", "--json", "--case", "client.exchange.*",
                                              "--case", "client.frame.four-containers", "--", FixturePaths.decafExecutable.path, "testee", "client",
                                              "--fault", "double-ack", "--fault", "depth-limit-three"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output.prefix(300))")
        let defects = try #require((report["diagnosis"] as? [String: Any])?["defects"] as? [[String: Any]])
        #expect(defects.compactMap { $0["name"] as? String } == ["double-ack", "depth-limit-three"])
        let unexplained = try Self.unexplained(report)
        #expect(unexplained == [], "\(unexplained)")
    }

    @Test("decaf conform coverage --targets: every required codec case with the mistakes that fail it, none missing")
    func targets() async throws {
        let run = try await DecafProcess.run(["conform", "coverage", "--targets"])
        #expect(run.status == 0)
        #expect(!run.output.contains("NONE"))
        #expect(run.output.contains("codec.decode.checksum.201"))
        #expect(run.output.hasSuffix(" required codec cases fail against a catalogued mistake\n"))
    }
}
