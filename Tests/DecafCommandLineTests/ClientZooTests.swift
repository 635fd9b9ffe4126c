import DecafTestSupport
import Foundation
import Testing

/// `decaf conform client` against clients a careless judge reads as right: one that never closes
/// (the suite's own close at the case's end is not the client's), one that sends a copy at once
/// and resends later with a new timestamp (the copy is not the resend), one that dies of an
/// uncaught exception (the death is the failure, not the case's requirements), one that does not
/// offer COMPRESSION (the case that needs it is unsupported), and one that drops its idle
/// connection (said as such, not as too few heartbeats). Each verdict and its stated cause, from
/// the JSON report as a user's CI reads it.
@Suite("decaf conform client against a zoo of clients", .serialized, .timeLimit(.minutes(5)))
struct ClientZooTests {
    /// One case's result in the JSON report of `decaf conform client --case ID -- decaf testee client ARGUMENTS`.
    static func result(of id: String, _ arguments: [String]) async throws -> [String: Any] {
        let run = try await DecafProcess.run(["conform", "client", "--case", id, "--json", "--", FixturePaths.decafExecutable.path, "testee", "client"] + arguments,
                                             limit: .seconds(180))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output) \(run.error)")
        let cases = try #require(report["cases"] as? [[String: Any]])
        return try #require(cases.first { $0["id"] as? String == id }, "no \(id) in \(cases.map { $0["id"] ?? "" })")
    }

    static func noted(_ result: [String: Any]) -> [String] {
        (result["transcript"] as? [[String: Any]] ?? []).filter { $0["direction"] as? String == "noted" }.compactMap { $0["text"] as? String }
    }

    @Test("a client that refuses a frame but never closes fails, and the close counted is not the suite's own")
    func neverCloses() async throws {
        let result = try await Self.result(of: "client.frame.duplicate-tags", ["--fault", "keeps-connection-on-error"])
        #expect(result["verdict"] as? String == "fail", "\(result["reason"] ?? "")")
        // The client closes only once the case has ended and its input with it, or the suite closes.
        let actual = result["actual"] as? String ?? ""
        #expect(actual.contains("closed by the client after the case ended") || actual.contains("closed by the suite at the case's end"), "\(actual)")
        #expect(Self.noted(result).contains { $0.contains("closed connection 1") }, "\(Self.noted(result))")
    }

    @Test("a client that sends a copy at once and resends with a new timestamp fails same-timestamp on the resend, not the copy")
    func earlyCopy() async throws {
        let result = try await Self.result(of: "client.retransmit.same-timestamp", ["--fault", "copy-then-new-timestamp"])
        #expect(result["verdict"] as? String == "fail", "\(result["reason"] ?? "")")
        #expect((result["reason"] as? String ?? "").contains("another timestamp"), "\(result["reason"] ?? "")")
        #expect((result["reason"] as? String ?? "").contains("sent before its ACK timeout are not resends"), "\(result["reason"] ?? "")")
    }

    @Test("a client that dies of an uncaught exception fails EX-5 once, with its last words, not the case's requirements")
    func diesOnError() async throws {
        let result = try await Self.result(of: "client.frame.bad-checksum", ["--fault", "exits-on-error"])
        #expect(result["verdict"] as? String == "fail")
        #expect(result["brokenRequirements"] as? [String] == ["EX-5"], "\(result["brokenRequirements"] ?? "")")
        let reason = result["reason"] as? String ?? ""
        #expect(reason.contains("crashed") && reason.contains("status 1") && reason.contains("NSInvalidArgumentException"), "\(reason)")
        #expect(Self.noted(result).contains { $0.contains("exited with status 1") }, "\(Self.noted(result))")
        #expect(Self.noted(result).contains { $0.contains("standard error") && $0.contains("uncaught exception") }, "\(Self.noted(result))")
    }

    /// A client whose standard error ends after its output and its exit: a child it left writes its
    /// last words. The case waited for the end of standard output alone, so a crash was judged
    /// without its last words, and `decaf fuzz client` took the same crash, quoted and unquoted,
    /// for two findings (one "needing" the inputs before it).
    @Test("a client that dies is quoted with its last words even when they come after its output ended")
    func lateLastWords() async throws {
        let script = #"echo '{"event":"ready","ackTimeoutMs":400,"retries":3,"reconnectBaseMs":100,"reconnectMaxMs":1000,"version":"1.0","features":["BASIC"]}'; "#
            + #"exec 1>&-; (sleep 0.3; echo "late-words: fatal error: the last words came late" >&2) & kill -ABRT $$"#
        let run = try await DecafProcess.run(["conform", "client", "--case", "client.frame.bad-checksum", "--json", "--", "/bin/sh", "-c", script],
                                             limit: .seconds(120))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output) \(run.error)")
        let result = try #require((report["cases"] as? [[String: Any]])?.first)
        let reason = result["reason"] as? String ?? ""
        #expect(reason.contains("killed by signal 6") && reason.contains("the last words came late"), "\(reason)")
    }

    @Test("a client that does not offer COMPRESSION makes the case about agreed compression unsupported")
    func noCompressionOffered() async throws {
        let result = try await Self.result(of: "client.handshake.compression-when-agreed", ["--features", "BASIC,READ_RECEIPT"])
        #expect(result["verdict"] as? String == "unsupported", "\(result["verdict"] ?? ""): \(result["reason"] ?? "")")
        #expect((result["reason"] as? String ?? "").contains("COMPRESSION"), "\(result["reason"] ?? "")")
    }

    @Test("a client that drops its idle connection is told what it did, not only that too few heartbeats came")
    func dropsIdleConnection() async throws {
        let result = try await Self.result(of: "client.heartbeat.idle", ["--fault", "drops-idle-connection"])
        #expect(result["verdict"] as? String == "fail", "\(result["reason"] ?? "")")
        let reason = result["reason"] as? String ?? ""
        #expect(reason.contains("did not keep its idle connection") && reason.contains("closed by the client"), "\(reason)")
    }

    @Test("fuzz client against a client that fails before any input arrives: one line saying so, exit 2, not a finding per input")
    func fuzzBeforeTheInput() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-zoo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await DecafProcess.run(["fuzz", "client", "--duration", "10s", "--findings", directory.path, "--",
                                              FixturePaths.decafExecutable.path, "testee", "client", "--fault", "checksum-in-host-order"], limit: .seconds(120))
        #expect(run.status == 2, "\(run.output) \(run.error)")
        #expect(run.error.contains("every input would fail the same way before the frame was even sent") && run.error.contains("little-endian"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.path), "no finding saved")
    }
}
