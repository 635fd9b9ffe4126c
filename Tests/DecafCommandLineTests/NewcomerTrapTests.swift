import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// The traps a new user fell into, each held shut: what a user copies or types the way another
/// tool taught them works, or is refused in one line that says what to type instead.
@Suite("newcomers' traps")
struct NewcomerTrapTests {
    @Test("a toxic's time without a unit is refused in one line, not read as seconds where toxiproxy reads milliseconds")
    func toxicTimeNeedsAUnit() async throws {
        let run = try await DecafProcess.run(["proxy", "127.0.0.1:0", "127.0.0.1:1", "--toxic", "latency:latency=50"])
        #expect(run.status == 2)
        #expect(run.error.contains("'50' has no unit; give one: 50ms or 50s"), "\(run.error)")
        #expect(run.error.split(separator: "\n").count <= 2, "\(run.error)")
    }

    @Test("a reliable sender keeps trying to connect until its --deadline, not the 10 s connect deadline")
    func reliableKeepsTrying() async throws {
        // Nothing listens on port 1: a reliable sender tries until its 12 s deadline.
        let run = try await DecafProcess.run(["send", "127.0.0.1:1", "--policy", "reliable", "--deadline", "12s"], limit: .seconds(120))
        #expect(run.status == 2, "\(run.error)")
        #expect(run.lifetime >= .milliseconds(11_500), "gave up after \(run.lifetime)")
        #expect(run.error.contains("no handshake completed: gave up after"), "\(run.error)")
    }

    @Test("every lost message's reason is in the report")
    func lostMessagesSayWhy() async throws {
        let peer = try RunningChild(decaf: ["peer", "--fault", "ack-wrong-sequence"])
        let address = String(try await peer.firstLine().dropFirst("listening on ".count))
        let run = try await DecafProcess.run(["send", address, "--count", "3", "--ack-timeout", "100ms"], limit: .seconds(120))
        _ = try await peer.stop()
        #expect(run.status == 1, "\(run.output) \(run.error)")
        // However many the peer's wrong ACKs lose, each loss is given its reason.
        let lost = run.output.firstMatch(of: /, (\d+) lost/).flatMap { Int($0.1) } ?? 0
        let explained = run.output.matches(of: /\n\s+lost (\d+):/).compactMap { Int($0.1) }.reduce(0, +)
        #expect(lost > 0 && explained == lost, "\(run.output)")
        #expect(run.output.contains(": no ACK after its retries"), "\(run.output)")
    }

    @Test("a frame whose magic is a near miss is shown with BAD_MAGIC named, not refused as not frames", arguments: [
        ([0xDE, 0xCA, 0xFB, 0xAC] as [UInt8], "one bit off 0xDECAFBAD"), ([0xDE, 0xCA, 0x00, 0xAD], "one byte off 0xDECAFBAD"),
        ([0xAD, 0xFB, 0xCA, 0xDE], "0xDECAFBAD written little-endian"),
    ])
    func nearMissMagic(_ magic: [UInt8], _ named: String) async throws {
        var encoder = FrameEncoder()
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(category: .normal, counter: 1), timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 1))
        let frame = magic + encoder.encode(header, fields: [TLVField(tag: .text, text: "hello")]).dropFirst(4)
        let file = FileManager.default.temporaryDirectory.appending(path: "decaf-near-miss-\(UUID().uuidString).bin")
        try Data(frame).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await DecafProcess.run(["dissect", file.path])
        #expect(run.status == 1, "\(run.output) \(run.error)")
        #expect(run.output.contains("BAD_MAGIC") && run.output.contains(named), "\(run.output)")
    }

    @Test("each fuzz command's --help gives the exit statuses the README gives, and says what the distinct answers are", arguments: ["server", "client", "decoder"])
    func fuzzHelp(_ target: String) async throws {
        let help = try await DecafProcess.run(["fuzz", target, "--help"]).output.replacingOccurrences(of: "\n", with: " ")
        for status in ["0 no finding", "1 findings", "3 no input could be sent", "130 interrupted"] {
            #expect(help.contains(status), "decaf fuzz \(target) --help has no '\(status)'")
        }
        #expect(help.contains("distinct answers: how many different kinds of answer"), "decaf fuzz \(target) --help")
    }

    @Test("a campaign's findings, written to decaf-findings by default, are never part of the tree")
    func findingsStayOut() async throws {
        let git = URL(filePath: "/usr/bin/git")
        let ignored = try await ChildProcess.run(git, ["check-ignore", "-q", "decaf-findings/finding-1-crash.json"], in: FixturePaths.root)
        #expect(ignored.status == 0, "decaf-findings/ is not ignored")
        let tracked = try await ChildProcess.run(git, ["ls-files", "decaf-findings"], in: FixturePaths.root)
        #expect(tracked.status == 0 && tracked.output.isEmpty, "tracked: \(String(decoding: tracked.output, as: UTF8.self))")
    }
}
