@testable import DecafConformance
import DecafNIO
import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// The reports and the exit status: what CI reads.
@Suite("conformance reports")
struct ReportTests {
    static let catalog = ConformanceCatalog()

    static func result(_ id: String, _ kind: VerdictKind) -> CaseResult {
        let testCase = catalog.case(id)!
        let transcript = [TranscriptEntry(direction: .sent, time: .milliseconds(1), bytes: FrameHeader.magicBytes + [0x01], label: "a <frame> & more")]
        return CaseResult(testCase: testCase, verdict: Verdict(kind, "reason with <markup> & \u{1} control", expected: "x", actual: "y", requirements: testCase.requirements),
                          transcript: transcript, duration: .milliseconds(3))
    }

    static func run(_ results: [CaseResult]) -> ConformanceRun {
        ConformanceRun(kind: .server, target: "127.0.0.1:1", identity: nil, catalogChecksum: catalog.checksum, results: results, duration: .seconds(1))
    }

    @Test("exit status: 0 all required pass, 1 a required failure, 2 a harness error, 3 nothing ran")
    func exitStatus() {
        #expect(Self.run([]).exitStatus == 3)
        #expect(Self.run([Self.result("handshake.basic-only", .pass), Self.result("timestamp.one-hour-ahead", .fail)]).exitStatus == 0)
        #expect(Self.run([Self.result("handshake.basic-only", .fail)]).exitStatus == 1)
        #expect(Self.run([Self.result("handshake.basic-only", .timeout)]).exitStatus == 1)
        #expect(Self.run([Self.result("handshake.basic-only", .harnessError)]).exitStatus == 2)
    }

    @Test("a failure that breaks a MUST counts as required in a case of any level, and the report says so")
    func mustBrokenInRecommendedCase() {
        var broken = Self.result("timestamp.one-hour-ahead", .fail)
        #expect(broken.testCase.level != .required)
        #expect(Self.run([broken]).exitStatus == 0)
        broken.verdict.breaksMust = true
        let run = Self.run([broken])
        #expect(run.exitStatus == 1 && run.unexpectedFailures.map(\.testCase.id) == ["timestamp.one-hour-ahead"])
        #expect(TextReport.detail(broken, withBytes: false).contains("[\(broken.testCase.level.rawValue); breaks a MUST]"))
        var passed = Self.result("timestamp.one-hour-ahead", .pass)
        passed.verdict.breaksMust = true
        #expect(Self.run([passed]).exitStatus == 0 && passed.levelLabel == passed.testCase.level.rawValue)
    }

    @Test("a baseline excuses expected failures and reports entries that pass or match nothing")
    func baseline() {
        var run = Self.run([Self.result("handshake.basic-only", .fail), Self.result("exchange.heartbeat", .pass), Self.result("handshake.no-features", .fail)])
        let baseline = Baseline(text: "# known\nhandshake.basic-only\nexchange.heartbeat  # fixed since\nno.such.case\n")
        run.baseline = baseline.compare(with: run.results, knownIDs: Set(Self.catalog.cases.map(\.id)))
        #expect(run.exitStatus == 1)
        #expect(run.baseline?.nowPassing == ["exchange.heartbeat"])
        #expect(TextReport.footer(run).contains("against the baseline: 1 expected failure, 1 new\n"))
        #expect(run.baseline?.unknown == ["no.such.case"])
        #expect(TextReport.footer(run).contains("baseline entry exchange.heartbeat now passes"))
        #expect(Baseline.text(for: run).contains("handshake.basic-only\n"))
    }

    @Test("the catalog has stable, unique IDs, each with requirements, and well over 100 network cases")
    func catalogShape() {
        let ids = Self.catalog.cases.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.count > 150)
        #expect(Self.catalog.cases.allSatisfy { !$0.requirements.isEmpty && !$0.summary.isEmpty })
        #expect(Self.catalog.checksum == ConformanceCatalog().checksum)
        let covered = Set(Self.catalog.cases.flatMap(\.requirements))
        let observable = Set(RequirementID.allCases).subtracting([.hs1, .crc3, .reconnect1])
        #expect(observable.subtracting(covered).isEmpty, "not covered: \(observable.subtracting(covered))")
    }

    /// A run with one case of every verdict.
    static var everyVerdict: ConformanceRun {
        run(VerdictKind.allCases.enumerated().map { index, kind in result(catalog.cases[index].id, kind) })
    }

    @Test("JUnit XML escapes markup and drops control characters from reasons")
    func junitEscapes() {
        let xml = JUnitReport.render(Self.everyVerdict)
        #expect(xml.contains("<failure message=\"fail: reason with &lt;markup&gt; &amp; \u{FFFD} control\""))
        #expect(!xml.contains("\u{1}"))
    }

    @Test(
        "JUnit XML passes the schema in Specs/junit.xsd, every testcase named, failures with their reason",
        .enabled(if: ExternalTool.xmllint.isInstalled, Comment(rawValue: ExternalTool.xmllint.skipReason))
    )
    func junitValidates() async throws {
        let xml = JUnitReport.render(Self.everyVerdict)
        let lint = URL(filePath: try #require(ExternalTool.xmllint.path))
        let file = FileManager.default.temporaryDirectory.appending(path: "decaf-junit-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let run = try await ChildProcess.run(lint, ["--noout", "--schema", FixturePaths.root.appending(path: "Specs/junit.xsd").path, file.path])
        #expect(run.status == 0, "\(String(decoding: run.error, as: UTF8.self))")
    }

    @Test("JSON and HTML carry the suite version, the catalog checksum and each case's bytes")
    func jsonAndHTML() throws {
        let run = Self.run([Self.result("handshake.basic-only", .fail), Self.result("exchange.heartbeat", .pass)])
        let json = try JSONSerialization.jsonObject(with: Data(try ConformanceRunJSON(run).text().utf8)) as! [String: Any]
        #expect(json["suiteVersion"] as? String == ConformanceCatalog.suiteVersion)
        #expect(json["catalogChecksum"] as? String == Self.catalog.checksum)
        let cases = json["cases"] as! [[String: Any]]
        #expect(cases.count == 2)
        #expect((cases[0]["transcript"] as! [[String: Any]])[0]["hex"] as? String == "decafbad01")
        let html = HTMLReport.render(run)
        #expect(html.contains(Self.catalog.checksum))
        // A big write is summarised: its length, CRC-32, first 2 KiB and last 64 bytes, not 20 MB of hex.
        let body = (0..<(10 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var big = Self.result("exchange.heartbeat", .pass)
        big.transcript = [TranscriptEntry(direction: .sent, time: .zero, bytes: body)]
        let text = try ConformanceRunJSON(Self.run([big])).text()
        #expect(text.utf8.count < 16_384)
        let entry = try #require(((JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["cases"] as? [[String: Any]])?[0]["transcript"] as? [[String: Any]])[0]
        #expect(entry["length"] as? Int == body.count && entry["crc32"] as? String == Hex.word(CRC32.checksum(body)))
        #expect(entry["hex"] as? String == Hex.string(body.prefix(2048)) && entry["tailHex"] as? String == Hex.string(body.suffix(64)))
        // A table per section that has cases, and none for the others.
        #expect(html.contains("<h2>7. Handshake and exchange</h2>"))
        #expect(!html.contains("<h2>2. Checksum</h2>"))
        #expect(html.contains("a &lt;frame&gt; &amp; more"))
    }
}
