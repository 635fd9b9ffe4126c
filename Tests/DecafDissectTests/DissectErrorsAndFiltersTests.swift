import DecafCapture
import DecafTestSupport
import Foundation
import Testing

/// `decaf dissect` where users go wrong or filter: errors in their words, statistics that see every
/// frame whatever the filter, and a filter that matches nothing said so.
@Suite("decaf dissect: errors and filters")
struct DissectErrorsAndFiltersTests {
    static let capture = FixturePaths.fixtures.appending(path: "captures/session-ethernet.pcap").path

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    @Test("a directory, a missing file and hex given as a file name: one line each, exit 2, saying what to do")
    func fileErrors() async throws {
        let directory = try await DecafProcess.run(["dissect", FixturePaths.fixtures.path])
        #expect(directory.status == 2)
        #expect(directory.error == "Error: \(FixturePaths.fixtures.path) is a directory; give a capture (pcap, pcapng) or a file of frames\n")
        let missing = try await DecafProcess.run(["dissect", "/no/such/capture.pcap"])
        #expect(missing.status == 2)
        #expect(missing.error == "Error: cannot read /no/such/capture.pcap: no such file or directory\n")
        let hex = try await DecafProcess.run(["dissect", "decafbad01"])
        #expect(hex.status == 2)
        #expect(hex.error.hasSuffix("no such file or directory; to dissect hex, give it with --hex\n"))
    }

    @Test("a capture without Decaf frames says why: connections that did not start with the magic (try --port), or were not on the port given")
    func noFramesSaysWhy() async throws {
        var http = SyntheticConversation(server: TCPEndpoint(address: SyntheticConversation.defaultServer.address, port: 80),
                                         start: CaptureTime(seconds: 1_700_000_000, nanoseconds: 0))
        http.handshake()
        http.send(Array("GET / HTTP/1.1\r\nHost: decaf\r\n\r\n".utf8), .clientToServer)
        http.close()
        let file = FileManager.default.temporaryDirectory.appending(path: "decaf-http-\(UUID().uuidString).pcap")
        try Data(CaptureWriter.pcap(http.records, linkType: .ethernet)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let guessed = try await DecafProcess.run(["dissect", file.path])
        #expect(guessed.error.hasSuffix("; 1 TCP connection(s) did not start with the magic (try --port)\n"), "\(guessed.error)")
        let chosen = try await DecafProcess.run(["dissect", "--port", "1", Self.capture])
        #expect(chosen.error.hasSuffix("TCP connection(s) were not on port 1\n"), "\(chosen.error)")
        #expect(!chosen.error.contains("try --port"))
    }

    @Test("--stats with a filter matches ACKs and handshakes across every frame and reports what the filter selects")
    func statisticsWithFilter() async throws {
        let all = try await DecafProcess.run(["dissect", "--stats", "--json", Self.capture])
        let data = try await DecafProcess.run(["dissect", "--stats", "--json", "--type", "DATA", Self.capture])
        let whole = try #require(try JSONSerialization.jsonObject(with: Data(all.output.utf8)) as? [String: Any])
        let filtered = try #require(try JSONSerialization.jsonObject(with: Data(data.output.utf8)) as? [String: Any])
        let byType = try #require(whole["byType"] as? [String: [String: Int]])
        let dataFrames = try #require(byType["DATA"]?["frames"])
        #expect((filtered["byType"] as? [String: Any])?.keys.sorted() == ["DATA"])
        #expect((filtered["roundTrips"] as? [Any])?.count == dataFrames, "every DATA frame's ACK is found, though ACKs do not match the filter")
        #expect((filtered["unacknowledged"] as? [Any])?.isEmpty == true)
        #expect((filtered["handshakes"] as? [Any])?.count == (whole["handshakes"] as? [Any])?.count)
        #expect((whole["handshakes"] as? [Any])?.count == 1)
        let text = try await DecafProcess.run(["dissect", "--stats", "--type", "DATA", Self.capture])
        #expect(text.output.hasPrefix("\(dataFrames) frame(s) matching the filter in 1 connection(s)"))
        #expect(text.output.contains("ACK round trip over \(dataFrames) acknowledged frame(s)"))
    }

    @Test("a filter that matches nothing says so on standard error and prints no empty connection header")
    func filterMatchingNothing() async throws {
        let run = try await DecafProcess.run(["dissect", "--type", "0x7", Self.capture])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(run.error.hasPrefix("No frame matches the filter; the capture holds "))
        let some = try await DecafProcess.run(["dissect", "--type", "HEARTBEAT", Self.capture])
        #expect(Self.lines(some.output).count == 2, "the connection's header, then its one HEARTBEAT: \(some.output)")
        #expect(some.output.hasPrefix("== connection 1"))
    }

    @Test("sequences are taken as frames print them, and -v is -V")
    func sequenceNotationAndVerbose() async throws {
        let printed = try await DecafProcess.run(["dissect", "--seq", "CONTROL/1", Self.capture])
        let numeric = try await DecafProcess.run(["dissect", "--seq", "0x02000001", Self.capture])
        #expect(printed.output == numeric.output)
        #expect(printed.output.contains("seq CONTROL/1"))
        let hello = FixturePaths.fixtures.appending(path: "frames/frame-basic/1.bin").path
        #expect(try await DecafProcess.run(["dissect", "-v", hello]).output == (try await DecafProcess.run(["dissect", "-V", hello])).output)
    }

    @Test("--version is the tool's on every command, the protocol's is --protocol-version")
    func versionFlag() async throws {
        for command in [["build"], ["peer"], ["handshake", "127.0.0.1:1"], ["dissect"]] {
            let run = try await DecafProcess.run(command + ["--version"])
            #expect(run.status == 0 && run.output == "0.1.0\n", "\(command): \(run.output) \(run.error)")
        }
        let built = try await DecafProcess.run(["build", "--protocol-version", "1.2", "--timestamp", "0"])
        #expect(built.output.hasPrefix("decafbad0102"))
    }
}
