import DecafTestSupport
import DecafWire
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Decaf against a second zoo of broken targets, run as a user runs it: each command ends within
/// its stated time and within a memory bound whatever the target sends, says the true cause in
/// its first lines, exits with its documented status, and keeps the results reached. One command
/// at a time: they are timed and their memory measured.
@Suite("decaf against a second zoo of broken targets", .serialized, .timeLimit(.minutes(5)),
       .enabled(if: ExternalTool.python3.isInstalled, Comment(rawValue: ExternalTool.python3.skipReason)))
struct SecondZooTests {
    /// The most memory a command may hold, whatever the target sends: the bound its --help states.
    static let memoryBound = 256 << 20

    /// Slack above a command's stated time, for starting it on a loaded machine: far below what an
    /// unbounded wait would take.
    static let slack = Duration.seconds(30)

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "decaf-zoo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A Python script in `directory`, for a testee of the zoo.
    static func script(_ source: String, in directory: URL) throws -> String {
        let url = directory.appending(path: "testee-\(UUID().uuidString).py")
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The reference codec testee, wrapped: every request goes to it, and `then` runs after each
    /// answer (`answer` the line, `answered` how many so far).
    static func codecWrapper(then: String, in directory: URL) throws -> String {
        let reference = FixturePaths.root.appending(path: "tools/reference/testee.py").path
        return try script("""
        import subprocess, sys
        ref = subprocess.Popen([sys.executable, '\(reference)'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        answered = 0
        for line in sys.stdin.buffer:
            ref.stdin.write(line); ref.stdin.flush()
            answer = ref.stdout.readline()
            answered += 1
            \(then)
        """, in: directory)
    }

    /// Runs decaf, measuring its own peak memory (not the testees' it starts), which the zoo bounds.
    static func decaf(_ arguments: [String], limit: Duration = .seconds(120)) async throws -> DecafProcess.Run {
        try await DecafProcess.run(arguments, limit: limit, measuringOwnMemory: true)
    }

    /// Checks a run's time, memory, status and first lines.
    static func expect(_ run: DecafProcess.Run, status: Int32, within bound: Duration, naming cause: String, _ what: String) {
        #expect(run.status == status, "\(what): exit status \(run.status): \(run.output.prefix(600)) \(run.error.prefix(600))")
        #expect(run.lifetime < bound + slack, "\(what) took \(run.lifetime), more than its bound \(bound)")
        #expect(run.peakMemory < memoryBound, "\(what) held \(run.peakMemory >> 20) MiB")
        // A campaign's progress lines (every 10 s where standard error is no terminal) say no cause.
        let said = (run.error + run.output).split(separator: "\n").filter { !($0.hasPrefix("fuzz ") && $0.contains(" inputs in ")) }
        let firstLines = said.prefix(4).joined(separator: "\n")
        #expect(firstLines.contains(cause), "\(what) did not say '\(cause)' first: \(firstLines)")
    }

    @Test("fuzz decoder against a testee that answers every request twice, in answers larger than a pipe holds: no deadlock, the cause, exit 2")
    func codecAnswersTwice() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A DATA frame of 1 MiB: its answer (2 MiB of hex) fills the answer pipe many times over,
        // so a suite that writes the next request before reading on waits forever.
        var encoder = FrameEncoder()
        let header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 1))
        let frame = encoder.encode(header, payload: TLVEncoder.encode([TLVField(tag: .custom, bytes: Array(repeating: 0x41, count: 1 << 20))]))
        let corpus = directory.appending(path: "big.bin")
        try Data(frame).write(to: corpus)
        let testee = try Self.codecWrapper(then: "sys.stdout.buffer.write(answer + answer); sys.stdout.flush()", in: directory)
        let run = try await Self.decaf(["fuzz", "decoder", "--duration", "20s", "--timeout", "20s", "--corpus", corpus.path, "--findings", directory.appending(path: "f").path,
                                              "--", "python3", testee], limit: .seconds(120))
        Self.expect(run, status: 2, within: .seconds(20), naming: "it answers some requests more than once", "fuzz decoder against a testee that answers twice")
    }

    @Test("fuzz decoder against a testee that exits after every 5 answers: the exits counted, the campaign given up with exit 2")
    func codecExitsEveryFiveAnswers() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let testee = try Self.codecWrapper(then: "sys.stdout.buffer.write(answer); sys.stdout.flush()\n    if answered == 5: sys.exit(0)", in: directory)
        // Bounded by a count of inputs, not by time: beside the whole test run the wrapper's two Python
        // processes start slowly (37 inputs in 20 s once), and the tenth exit comes after 50 inputs.
        let run = try await Self.decaf(["fuzz", "decoder", "--runs", "100", "--timeout", "20s", "--findings", directory.appending(path: "f").path,
                                              "--", "python3", testee], limit: .seconds(240))
        Self.expect(run, status: 2, within: .seconds(180), naming: "the testee exited by itself", "fuzz decoder against a testee that exits every 5 answers")
    }

    /// A server of `tools/zoo/server.py` in `mode`, and its address.
    static func zooServer(_ mode: String) async throws -> (RunningChild, String) {
        let script = FixturePaths.root.appending(path: "tools/zoo/server.py").path
        let server = try RunningChild(URL(filePath: "/usr/bin/env"), ["python3", script, mode])
        let address = String(try await server.firstLine().dropFirst("listening on ".count))
        return (server, address)
    }

    @Test("conform server against a server that floods after the handshake: memory bounded, the flood named, within the case's limit")
    func conformServerFlooded() async throws {
        let (server, address) = try await Self.zooServer("flood")
        defer { Task { _ = try? await server.stop(signal: SIGKILL) } }
        let run = try await Self.decaf(["conform", "server", address, "--case", "exchange.read-receipt", "--timeout", "4s"], limit: .seconds(120))
        // One case of 4 steps: (2 x 4 + 2) x --timeout at most.
        Self.expect(run, status: 1, within: .seconds(40), naming: "TIMEOUT exchange.read-receipt", "conform server against a flooding server")
        #expect(run.output.contains("meanwhile the target sent "), "\(run.output)")
    }

    @Test("fuzz server against a server that floods: memory bounded, ended within --duration and twice --timeout")
    func fuzzServerFlooded() async throws {
        let (server, address) = try await Self.zooServer("flood")
        defer { Task { _ = try? await server.stop(signal: SIGKILL) } }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await Self.decaf(["fuzz", "server", address, "--duration", "10s", "--timeout", "2s", "--findings", directory.path], limit: .seconds(120))
        #expect(run.status == 0 || run.status == 1, "\(run.output) \(run.error)")
        // The campaign is cut at --duration and twice --timeout by a timer; the slack is for starting
        // (the catalogs a debug build makes, on a loaded machine), far below the old 30 s overrun.
        #expect(run.lifetime < .seconds(14) + Self.slack, "took \(run.lifetime): \(run.output.suffix(400)) \(run.error.suffix(400))")
        #expect(run.peakMemory < Self.memoryBound, "held \(run.peakMemory >> 20) MiB")
    }

    @Test("a server whose listen backlog is full: every command that connects says nothing accepted the connection", arguments: [
        ["handshake", "--timeout", "2s"], ["send", "--connect-deadline", "2s"], ["conform", "server", "--timeout", "2s"], ["fuzz", "server", "--timeout", "2s", "--duration", "5s"],
    ])
    func backlogFull(_ command: [String]) async throws {
        let (server, address) = try await Self.zooServer("backlog")
        defer { Task { _ = try? await server.stop(signal: SIGKILL) } }
        let split = command.firstIndex { $0.hasPrefix("--") } ?? command.count
        let run = try await Self.decaf(Array(command[..<split]) + [address] + Array(command[split...]), limit: .seconds(120))
        Self.expect(run, status: 2, within: .seconds(10), naming: "did not accept the connection within", "\(command[0]) against a full backlog")
    }

    @Test("a handshake answered with a frame of 10 MiB sent a byte a second: the frame unfinished, not a stream that ended", arguments: [
        ["send", "--connect-deadline", "3s"], ["handshake", "--timeout", "3s"],
    ])
    func slowHugeAnswer(_ command: [String]) async throws {
        let (server, address) = try await Self.zooServer("slow-body")
        defer { Task { _ = try? await server.stop(signal: SIGKILL) } }
        let run = try await Self.decaf([command[0], address] + command.dropFirst(), limit: .seconds(120))
        let said = run.output + run.error
        #expect(said.contains("began a frame of 10485788 bytes"), "\(said)")
        #expect(!said.contains("TRUNCATED_FRAME") && !said.contains("stream ended"), "\(said)")
        #expect(run.lifetime < .seconds(3) + Self.slack)
    }

    @Test("fuzz server against a server that closes every connection after the frame after the handshake: one finding, not the input's")
    func fuzzServerClosingAfterOneFrame() async throws {
        let (server, address) = try await Self.zooServer("one-frame")
        defer { Task { _ = try? await server.stop(signal: SIGKILL) } }
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await Self.decaf(["fuzz", "server", address, "--runs", "60", "--timeout", "2s", "--findings", directory.path], limit: .seconds(240))
        #expect(run.status == 1, "\(run.output) \(run.error)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(saved.count == 1, "\(saved)")
        #expect(run.output.contains("not caused by the input: a plain DATA frame sent after the handshake"), "\(run.output)")
    }

    @Test("decaf proxy out of file descriptors: stops accepting instead of spinning, says so once, carries what it can")
    func proxyOutOfDescriptors() async throws {
        let peer = try RunningChild(decaf: ["peer"])
        let upstream = String(try await peer.firstLine().dropFirst("listening on ".count))
        let proxy = try RunningChild(URL(filePath: "/bin/sh"), ["-c", "ulimit -n 256 && exec \"$0\" proxy 127.0.0.1:0 \"$1\"", FixturePaths.decafExecutable.path, upstream])
        let address = String(try await proxy.firstLine().dropFirst("listening on ".count))
        let port = Int(address.split(separator: ":").last ?? "") ?? 0
        // 600 clients at once, each holding its connection: the proxy can carry (256 - 64) / 2 = 96.
        var clients: [Int32] = []
        defer { for client in clients { close(client) } }
        for _ in 0..<600 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: in_port_t(UInt16(port).bigEndian), sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
            _ = fcntl(client, F_SETFL, O_NONBLOCK)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            clients.append(client)
        }
        let said = try await proxy.errorLine(containing: "the most its 256 file descriptors allow", limit: .seconds(30))
        #expect(said.contains("carrying 96 connections"), "\(said)")
        // While the clients wait, the proxy waits too: a spinning accept loop would burn a core.
        let before = try proxy.times()
        try await Task.sleep(for: .seconds(3))
        let after = try proxy.times()
        #expect(after.cpu - before.cpu < .seconds(1), "the proxy used \(after.cpu - before.cpu) of CPU in 3 s while clients waited")
        for client in clients { close(client) }
        clients = []
        let run = try await proxy.stop()
        let error = String(decoding: run.error, as: UTF8.self)
        #expect(error.components(separatedBy: "file descriptors allow").count == 2, "said once: \(error)")
        _ = try await peer.stop()
    }

    @Test("conform client against a client that writes to its standard error without end: memory bounded, the cases judged")
    func clientEndlessStandardError() async throws {
        let client = FixturePaths.root.appending(path: "tools/reference/client.py").path
        let run = try await Self.decaf(["conform", "client", "--case", "client.exchange.*", "--", "sh", "-c",
                                              "yes 'a log line, and another, and another' >&2 & exec python3 \"$0\"", client], limit: .seconds(240))
        #expect(run.status == 0, "\(run.output.suffix(800)) \(run.error)")
        #expect(run.peakMemory < Self.memoryBound, "held \(run.peakMemory >> 20) MiB")
    }

    @Test("conform client against a client that writes one endless line: refused at the case's longest line, memory bounded, exit 2")
    func clientEndlessLine() async throws {
        let run = try await Self.decaf(["conform", "client", "--", "python3", "-c",
                                              "import sys\nwhile True: sys.stdout.write('x' * 65536)"], limit: .seconds(240))
        Self.expect(run, status: 2, within: .seconds(60), naming: "a line longer than", "conform client against an endless line")
    }

    @Test("the --help of every command that talks to a target states its time and memory bounds", arguments: [
        ["conform", "server"], ["conform", "client"], ["conform", "decoder"], ["fuzz", "server"], ["fuzz", "client"], ["fuzz", "decoder"],
        ["send"], ["handshake"], ["proxy"],
    ])
    func helpStatesBounds(_ command: [String]) async throws {
        let help = try await Self.decaf(command + ["--help"]).output.replacingOccurrences(of: "\n", with: " ")
        #expect(help.contains("within") || help.contains("ends by"), "\(command.joined(separator: " ")) --help states no time bound")
        #expect(help.contains("Memory:"), "\(command.joined(separator: " ")) --help states no memory bound")
    }
}
