import DecafTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Decaf against a zoo of broken targets, run as a user runs it: every command ends within the
/// bound its --help states, says the cause in one paragraph, and exits 2; nothing hangs, floods or
/// runs a case against something that is not a Decaf server. One command at a time: they are
/// timed, and the rest of the suite loads the machine enough.
@Suite("decaf against broken targets", .serialized, .timeLimit(.minutes(5)))
struct BrokenTargetTests {
    /// What one command against one server gave, and how long it took.
    struct Outcome {
        var run: DecafProcess.Run
        var took: Duration
    }

    static func timed(_ arguments: [String]) async throws -> Outcome {
        let run = try await DecafProcess.run(arguments, limit: .seconds(120))
        return Outcome(run: run, took: run.lifetime)
    }

    /// Slack above a command's stated bound, for starting it (a debug build, building its
    /// catalog) on a loaded machine: far below what an unbounded wait would take.
    static let slack = Duration.seconds(30)

    /// Checks that `outcome` ended within `bound`, with exit status 2, one paragraph on standard
    /// error that names one of `causes`, and nothing on standard output.
    static func expectOneParagraph(_ outcome: Outcome, within bound: Duration, naming causes: [String], _ what: String) {
        #expect(outcome.run.status == 2, "\(what): exit status \(outcome.run.status): \(outcome.run.error)")
        #expect(outcome.took < bound + slack, "\(what) took \(outcome.took), more than its bound \(bound)")
        let lines = outcome.run.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("Error: ") && causes.contains { lines[0].contains($0) },
                "\(what) did not say '\(causes.joined(separator: "' or '"))' in one paragraph: \(outcome.run.error)")
        #expect(outcome.run.output.isEmpty, "\(what) printed: \(outcome.run.output.prefix(300))")
    }

    @Test("conform server: no case runs, one paragraph names what answered, exit 2, within 4 x --timeout", arguments: BrokenServer.Kind.allCases)
    func conformServer(_ kind: BrokenServer.Kind) async throws {
        let server = try await BrokenServer.start(kind)
        // 4 s: the broken servers run in this test process, which the rest of the test run keeps
        // busy; with 1 s one answered its TLS ServerHello too late once and looked silent, with
        // 2 s its HTTP answer once.
        let outcome = try await Self.timed(["conform", "server", "127.0.0.1:\(server.port)", "--timeout", "4s"])
        Self.expectOneParagraph(outcome, within: .seconds(16), naming: kind.causes, "conform server against a server that \(kind.rawValue)")
        #expect(outcome.run.error.hasSuffix("No case ran.\n"))
        await server.stop()
    }

    @Test("handshake: one paragraph names what answered, exit 2, within --timeout", arguments: BrokenServer.Kind.allCases)
    func handshake(_ kind: BrokenServer.Kind) async throws {
        let server = try await BrokenServer.start(kind)
        let outcome = try await Self.timed(["handshake", "127.0.0.1:\(server.port)", "--timeout", "1s"])
        Self.expectOneParagraph(outcome, within: .seconds(1), naming: kind.causes, "handshake with a server that \(kind.rawValue)")
        await server.stop()
    }

    @Test("send: says what goes wrong while trying, gives up at --connect-deadline with exit 2", arguments: BrokenServer.Kind.allCases)
    func send(_ kind: BrokenServer.Kind) async throws {
        let server = try await BrokenServer.start(kind)
        let outcome = try await Self.timed(["send", "127.0.0.1:\(server.port)", "--connect-deadline", "2s"])
        #expect(outcome.run.status == 2, "\(outcome.run.error)")
        #expect(outcome.took < .seconds(2) + Self.slack)
        let lines = outcome.run.error.split(separator: "\n")
        #expect(lines.last?.hasPrefix("Error: 127.0.0.1:\(server.port) ") == true && lines.last?.contains("no handshake completed: gave up after") == true,
                "\(outcome.run.error)")
        // Each change of reason is said once while trying, not once per attempt.
        #expect(lines.count <= 4, "\(outcome.run.error)")
        await server.stop()
    }

    @Test("a handshake through decaf proxy to each broken server gets the same one paragraph, within --timeout", arguments: BrokenServer.Kind.allCases)
    func throughProxy(_ kind: BrokenServer.Kind) async throws {
        let server = try await BrokenServer.start(kind)
        let proxy = try RunningChild(decaf: ["proxy", "127.0.0.1:0", "127.0.0.1:\(server.port)"])
        let address = String(try await proxy.firstLine().dropFirst("listening on ".count))
        let outcome = try await Self.timed(["handshake", address, "--timeout", "1s"])
        // Through a proxy a reset upstream reaches the client as the proxy's close.
        let causes = kind == .resets ? BrokenServer.Kind.closes.causes : kind.causes
        Self.expectOneParagraph(outcome, within: .seconds(1), naming: causes, "handshake through the proxy with a server that \(kind.rawValue)")
        _ = try await proxy.stop()
        await server.stop()
    }

    @Test("conform server against a server stopped with SIGSTOP: nothing ran, one paragraph, exit 2, within 4 x --timeout")
    func stoppedServer() async throws {
        let peer = try RunningChild(decaf: ["peer"])
        let address = String(try await peer.firstLine().dropFirst("listening on ".count))
        peer.signal(SIGSTOP)
        let outcome = try await Self.timed(["conform", "server", address, "--timeout", "1s"])
        peer.signal(SIGCONT)
        Self.expectOneParagraph(outcome, within: .seconds(4), naming: ["answered nothing within"], "conform server against a stopped server")
        _ = try await peer.stop()
    }

    @Test("conform server against a server that stops mid-run: the verdicts reached, STOPPED with the cause, exit 2")
    func serverStoppedMidRun() async throws {
        let peer = try RunningChild(decaf: ["peer"])
        let address = String(try await peer.firstLine().dropFirst("listening on ".count))
        // The peer answers 40 connections, then stops answering: the opening handshake and 39 cases.
        let relay = try await StoppingRelay.start(upstreamPort: Int(address.split(separator: ":").last!)!, served: 40)
        let outcome = try await Self.timed(["conform", "server", "127.0.0.1:\(relay.port)", "--timeout", "1s"])
        #expect(outcome.run.status == 2, "\(outcome.run.output.suffix(600)) \(outcome.run.error)")
        #expect(outcome.run.output.hasPrefix("decaf-conform 1, catalog "), "\(outcome.run.error)")
        #expect(outcome.run.output.contains("\nSTOPPED after ") && outcome.run.output.contains(" of 223 cases: "), "\(outcome.run.output.suffix(600))")
        #expect(outcome.run.output.contains("3 cases in a row timed out") && outcome.run.output.contains("a fresh handshake failed too"))
        #expect(outcome.run.output.contains(" passed"), "the cases before the stop kept their verdicts")
        // Each case ends within (2 x steps + 2) x --timeout; the stop comes after three of them and a handshake.
        #expect(outcome.took < .seconds(60) + Self.slack)
        await relay.stop()
        _ = try await peer.stop()
    }

    @Test("conform client: a testee that does nothing a case can judge stops the run after 3 cases, one paragraph, exit 2", arguments: [
        ("exit 3", "exited with status 3"), ("sleep 600", "never connected"), ("yes garbage", "not an event of the protocol: 'garbage'"),
        ("echo '{\"event\":\"ready\"}'; sleep 600", "never connected"),
    ])
    func conformClient(_ script: String, _ cause: String) async throws {
        let outcome = try await Self.timed(["conform", "client", "--", "sh", "-c", script])
        // Three cases at most: each ends within its time limit (8 s for the first cases).
        Self.expectOneParagraph(outcome, within: .seconds(30), naming: [cause], "conform client with a testee that runs '\(script)'")
        #expect(outcome.run.error.contains("in each of its first 3 cases"))
    }

    @Test("conform decoder: a testee that never answers stops the run after 3 cases, one paragraph, exit 2", arguments: [
        ("exit 3", "exited with status 3 before answering, in each of its first 3 cases"), ("sleep 600", "answered no request within 1.0 seconds, in each of its first 3 cases"),
        ("cat > /dev/null", "answered no request within"), ("yes garbage", "not the testee protocol's JSON"),
    ])
    func conformDecoder(_ script: String, _ cause: String) async throws {
        let outcome = try await Self.timed(["conform", "decoder", "--timeout", "1s", "--", "sh", "-c", script])
        Self.expectOneParagraph(outcome, within: .seconds(3) + .seconds(3), naming: [cause], "conform decoder with a testee that runs '\(script)'")
    }
}
