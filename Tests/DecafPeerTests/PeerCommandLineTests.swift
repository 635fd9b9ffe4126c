import DecafSession
import DecafTestSupport
import Foundation
import Testing

/// `decaf peer`, `decaf handshake` and `decaf send` run as a user runs them, in separate processes.
@Suite("Peer commands on the command line", .serialized, .timeLimit(.minutes(3)))
struct PeerCommandLineTests {
    static func decaf(_ arguments: [String]) async throws -> DecafProcess.Run {
        try await DecafProcess.run(arguments)
    }

    /// Starts `decaf peer` with `arguments`, runs `body` with its address, then stops it with SIGINT
    /// and returns what it printed after its address.
    static func withPeer(_ arguments: [String] = [], _ body: (String) async throws -> Void) async throws -> String {
        let peer = try RunningChild(decaf: ["peer", "--log-level", "critical"] + arguments)
        let line = try await peer.firstLine()
        #expect(line.hasPrefix("listening on "))
        let address = String(line.dropFirst("listening on ".count))
        do {
            try await body(address)
        } catch {
            _ = try? await peer.stop()
            throw error
        }
        let run = try await peer.stop()
        #expect(run.status == 0 && !run.signalled, "the peer stops cleanly on SIGINT")
        return String(decoding: run.output, as: UTF8.self)
    }

    @Test("a peer on a busy port says which address and why, in one line, exit 2")
    func busyPort() async throws {
        _ = try await Self.withPeer { address in
            let run = try await Self.decaf(["peer", "--listen", address])
            #expect(run.status == 2)
            #expect(run.error == "Error: cannot listen on \(address): address already in use; is another server listening there? A port of 0 picks a free one\n")
        }
    }

    @Test("the peer prints its address first, serves handshake and send, and stops cleanly on SIGINT")
    func peerHandshakeSend() async throws {
        let summary = try await Self.withPeer { address in
            let handshake = try await Self.decaf(["handshake", "--json", "--features", "BASIC,READ_RECEIPT", address])
            #expect(handshake.status == 0)
            let json = try JSONSerialization.jsonObject(with: Data(handshake.output.utf8)) as? [String: Any]
            #expect(json?["ok"] as? Bool == true)
            #expect(json?["features"] as? Int == 9)
            let send = try await Self.decaf(["send", address, "--count", "50", "--connections", "2", "--json"])
            #expect(send.status == 0)
            let report = try JSONSerialization.jsonObject(with: Data(send.output.utf8)) as? [String: Any]
            #expect(report?["acknowledged"] as? Int == 100)
            #expect(report?["readReceipts"] as? Int == 100)
        }
        #expect(summary.contains("stopped by signal 2"))
        #expect(summary.contains("100 delivered"))
    }

    @Test("a SIGINT sent as soon as the peer prints its address stops it cleanly: the signal is caught before that line")
    func interruptAtOnce() async throws {
        for _ in 0..<10 {
            let peer = try RunningChild(decaf: ["peer", "--log-level", "critical"])
            _ = try await peer.firstLine()
            let run = try await peer.stop()
            #expect(run.status == 0 && !run.signalled)
            #expect(String(decoding: run.output, as: UTF8.self).contains("stopped by signal 2"))
        }
    }

    @Test("a handshake the peer leaves unanswered exits 1")
    func failedHandshake() async throws {
        _ = try await Self.withPeer(["--fault", "handshake-ignores-short"]) { address in
            // Long enough to connect on a loaded machine: the connection counts against it too.
            let run = try await Self.decaf(["handshake", "--timeout", "2s", address])
            #expect(run.status == 1, "\(run.output)\(run.error)")
            #expect(run.output.contains("failed"))
        }
    }

    @Test("--list-faults names every fault with what it breaks")
    func listFaults() async throws {
        let run = try await Self.decaf(["peer", "--list-faults"])
        #expect(run.status == 0)
        #expect(run.output.split(separator: "\n").count == PeerFault.named.count && PeerFault.named.count == 24,
                "the 19 conform catches and the 4 rare ones the fuzzer finds")
        #expect(run.output.split(separator: "\n").contains { $0.hasPrefix("handshake-ignores-short ") && $0.contains(" HS-2 ") })
        #expect(run.output.contains("refuse-empty-deep-container") && run.output.contains("found by fuzzing"))
    }

    @Test("usage errors exit 2", arguments: [
        ["peer", "--fault", "no-such-fault"], ["send", "localhost"], ["send", "127.0.0.1:1", "--reconnect", "sometimes"],
        ["handshake"], ["peer", "--log-level", "loud"],
    ])
    func usageErrors(arguments: [String]) async throws {
        #expect(try await Self.decaf(arguments).status == 2)
    }

    @Test("send to a port where nothing listens says why at the first attempt and, never connected, exits 2")
    func nothingListening() async throws {
        let run = try await Self.decaf(["send", "127.0.0.1:1", "--count", "2", "--reconnect", "none"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error.hasPrefix("cannot connect to 127.0.0.1:1: connection refused; still trying\n"))
        #expect(run.error.hasPrefix("cannot connect to 127.0.0.1:1: connection refused; still trying\nError: cannot connect to 127.0.0.1:1: connection refused; no handshake completed: gave up after 1 attempt in "), "\(run.error)")
    }

    @Test("send keeps trying an address where nothing listens, saying why once, until its connect deadline")
    func retriesSayingWhy() async throws {
        let started = ContinuousClock.now
        let run = try await Self.decaf(["send", "127.0.0.1:1", "--count", "1", "--connect-deadline", "1s", "--max-delay", "100ms"])
        #expect(run.status == 2)
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 2, "one line while trying, one at the end: \(run.error)")
        #expect(lines.last?.contains("no handshake completed: gave up after") == true, "\(run.error)")
        #expect(ContinuousClock.now - started < .seconds(30), "it gave up at its connect deadline")
    }
}
