import DecafTestSupport
import Foundation
import Testing

/// The diagnosis as a user meets it: `decaf conform decoder` against a codec testee with a planted
/// mistake leads with the defect, in a report of one screen; `--verbose` keeps every case; the
/// JSON names the defect of each failure; `decaf conform coverage --targets` lists the targets.
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

    @Test("decaf conform coverage --targets: every required codec case with the mistakes that fail it, none missing")
    func targets() async throws {
        let run = try await DecafProcess.run(["conform", "coverage", "--targets"])
        #expect(run.status == 0)
        #expect(!run.output.contains("NONE"))
        #expect(run.output.contains("codec.decode.checksum.201"))
        #expect(run.output.hasSuffix(" required codec cases fail against a catalogued mistake\n"))
    }
}
