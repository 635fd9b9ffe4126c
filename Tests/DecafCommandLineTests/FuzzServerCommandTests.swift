import DecafSession
import DecafTestSupport
import Foundation
import Testing

/// `decaf fuzz server` against the reference peer: each rare planted fault (which `decaf conform
/// server` passes) found from the golden corpus with a small reproducer that replays, nothing
/// found in the faultless peer, and an unreachable server refused in one line. One campaign at a
/// time, as for the codec.
@Suite("decaf fuzz server", .serialized)
struct FuzzServerCommandTests {
    static let decaf = FixturePaths.decafExecutable.path

    /// A port nobody listens on now: the kernel's pick for a socket bound and closed again.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A peer with `arguments` on a port of its own, and its address.
    static func peer(_ arguments: [String]) async throws -> (RunningChild, String) {
        let peer = try RunningChild(decaf: ["peer", "--listen", "127.0.0.1:0"] + arguments)
        let line = try await peer.firstLine()
        return (peer, String(line.dropFirst("listening on ".count)))
    }

    /// Each rare fault, the oracle that must fire, the largest reproducer acceptable, how long the
    /// fuzzer waits for an answer (a crash is told by a fresh handshake, which a loaded machine
    /// must not make look late; a hang is confirmed by asking again with twice the wait), and the
    /// seed. The same seed gives the same inputs, so the input that sets a fault off is fixed, and
    /// within the campaign's 4,000 (the invalid TEXT inside a compressed body at the 112th, its
    /// value edited inside the zlib body). The campaign is bounded by a count of inputs, not by
    /// time: the debug build under the whole test run's load sent only 1,775 inputs in 2 minutes once.
    static let planted: [(fault: String, oracle: String, atMost: Int, timeout: String, seed: String)] = [
        ("crash-on-deep-empty-text", "crash", 120, "3s", "7"),
        ("hang-at-inflate-limit", "hang", 400, "1s", "1"),
        ("refuse-empty-deep-container", "disagreement", 80, "2s", "1"),
        ("crash-on-compressed-invalid-text", "crash", 120, "3s", "1"),
        // A fault of a session's later messages: set off only by an input sent after a DATA frame.
        ("crash-on-later-empty-text", "crash", 120, "3s", "1"),
    ]

    /// One run with the three at once: a case that set any of them off would fail (or, for the
    /// crash, end the run).
    @Test("decaf conform server passes a peer with every rare planted fault: its cases never send what sets one off")
    func conformPasses() async throws {
        // The brief's limits, under which the catalog holds all its cases (a 64 KiB limit leaves
        // out the vectors made for the default one).
        let (peer, address) = try await Self.peer(Self.planted.flatMap { ["--fault", $0.fault] })
        let conform = try await DecafProcess.run(["conform", "server", address], limit: .seconds(300))
        _ = try? await peer.stop()
        #expect(conform.status == 0, "decaf conform server catches a rare fault: \(conform.output.suffix(600))")
        #expect(conform.output.contains("223 cases: 222 passed, 1 unsupported"), "\(conform.output.suffix(300))")
    }

    @Test("decaf fuzz server finds each rare planted fault within 4,000 inputs, minimized, once; it replays", arguments: planted.indices)
    func plantedFault(index: Int) async throws {
        let (fault, oracle, atMost, timeout, seed) = Self.planted[index]
        let limits = ["--body-limit", "65536"]
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-fuzz-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The fuzzer starts the faulty peer itself, and again after each crash.
        let port = try Self.freePort()
        let restart = "\(Self.decaf) peer --listen 127.0.0.1:\(port) --fault \(fault) --body-limit 65536"
        let run = try await DecafProcess.run(["fuzz", "server", "127.0.0.1:\(port)", "--runs", "4000", "--max-findings", "1", "--timeout", timeout, "--seed", seed,
                                              "--restart", restart, "--findings", directory.path] + limits, limit: .seconds(300))
        #expect(run.status == 1, "\(run.output)\(run.error)")
        let finding = try SavedFinding.only(in: directory)
        let name = finding.name
        #expect(finding.oracle == oracle)
        #expect(finding.length ?? .max <= atMost, "the reproducer is \(finding.length.map(String.init) ?? "?") bytes")
        #expect(run.output.contains("\(oracle.uppercased()): Sent "))

        let (faulty, faultyAddress) = try await Self.peer(["--fault", fault] + limits)
        let replay = try await DecafProcess.run(["fuzz", "replay", directory.appending(path: name).path, "--timeout", "1s", "--server", faultyAddress])
        _ = try? await faulty.stop()
        #expect(replay.status == 1)
        #expect(replay.output.contains("\(oracle.uppercased()) again"), "\(replay.output)\(replay.error)")
        let (fixed, fixedAddress) = try await Self.peer(limits)
        let answered = try await DecafProcess.run(["fuzz", "replay", directory.appending(path: name).path, "--timeout", "1s", "--server", fixedAddress])
        _ = try await fixed.stop()
        #expect(answered.status == 0, "\(answered.output)\(answered.error)")
    }

    @Test("the faultless reference peer gives no finding")
    func noFalsePositives() async throws {
        try await Self.noFinding(peer: [], runs: 1000, seed: 7, limit: .seconds(300))
    }

    /// A campaign of `runs` inputs against the peer with `arguments` (and a 64 KiB body limit)
    /// ends within `limit` with no finding.
    /// `told` goes to the peer, to `decaf fuzz server` and, when `conforms`, to a `decaf conform
    /// server` run first that must pass.
    static func noFinding(peer arguments: [String], told: [String] = ["--body-limit", "65536"], conforms: Bool = false,
                          runs: Int, seed: Int, limit: Duration) async throws {
        let (peer, address) = try await Self.peer(told + arguments)
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-fuzz-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        if conforms {
            let conform = try await DecafProcess.run(["conform", "server", address] + told, limit: limit)
            #expect(conform.status == 0, "\(conform.output)\(conform.error)")
        }
        let run = try await DecafProcess.run(["fuzz", "server", address, "--runs", "\(runs)", "--seed", "\(seed)", "--findings", directory.path] + told,
                                             limit: limit)
        _ = try await peer.stop()
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("fuzz server: \(runs) inputs"), "\(run.output)")
    }

    /// The peer with every choice the brief leaves a server gives no finding either, at the pace of
    /// the faultless one: a peer that remembers CONTROL frames per session once took each input's
    /// handshake, opened in the same session and second as the one before it, for a repeat, and
    /// answered it with an ACK alone (half an input a second, every one a wait to its timeout).
    @Test("a peer with every legal choice gives no finding, at the faultless peer's pace")
    func legalChoices() async throws {
        try await Self.noFinding(peer: ["--refuse-after-body", "--timestamp-window", "60s"] + PeerChoice.allCases.flatMap { ["--choice", $0.rawValue] },
                                 runs: 600, seed: 3, limit: .seconds(120))
    }

    /// Limits a receiver may set, told to the suite and the fuzzer as to the peer: the golden
    /// vectors made for the defaults are judged as such a server reads them, and no case fails.
    @Test("a peer with its own limits, told to conform and fuzz, passes every case and gives no finding")
    func ownLimits() async throws {
        try await Self.noFinding(peer: [], told: ["--allow-duplicate-tags", "--depth-limit", "8", "--body-limit", "4096"], conforms: true,
                                 runs: 300, seed: 3, limit: .seconds(120))
    }

    @Test("a server that cannot be reached, or a --restart that brings none, is one line and exit 2")
    func unreachable() async throws {
        let port = try Self.freePort()
        let run = try await DecafProcess.run(["fuzz", "server", "127.0.0.1:\(port)", "--runs", "10"])
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("Error: decaf fuzz server: cannot connect to 127.0.0.1:\(port): connection refused"), "\(run.error)")
        #expect(run.error.split(separator: "\n").count == 1)
        let restart = try await DecafProcess.run(["fuzz", "server", "127.0.0.1:\(port)", "--runs", "10", "--restart", "exit 3"], limit: .seconds(60))
        #expect(restart.status == 2)
        #expect(restart.error.contains("--restart exit 3 did not bring 127.0.0.1:\(port) back within 10 s"), "\(restart.error)")
        #expect(restart.error.split(separator: "\n").count == 1)
    }
}
