import DecafNIO
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A child holds its three streams and nothing else, so a connection closed here ends at the
/// other side while the child lives; how it ended is told as an exit status or a signal.
@Suite("a spawned process")
struct SpawnedProcessTests {
    @Test("a socket open here, without close-on-exec, is not the child's: closing it here ends the stream at once")
    func holdsNoOtherDescriptor() throws {
        // A socket as SwiftNIO makes them: inherited across exec unless the spawn closes it.
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        let child = try SpawnedProcess(executable: "/bin/sleep", arguments: ["30"])
        defer { child.stop() }
        close(pair[1])
        // The other end reads the end of the stream, unless the child still holds this end.
        var poller = pollfd(fd: pair[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 10_000) == 1, "no end of stream within 10 s: the child holds the closed end")
        var byte: UInt8 = 0
        #expect(read(pair[0], &byte, 1) == 0)
        #expect(child.isRunning)
    }

    @Test("its standard streams are pipes, or the descriptors given, in the directory given")
    func streams() throws {
        let child = try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", "read line; pwd; echo \"$line\" >&2"], directory: "/tmp",
                                       standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        let input = try #require(child.pipes.input), output = try #require(child.pipes.output), error = try #require(child.pipes.error)
        #expect(SpawnedProcess.write(Array("to-error\n".utf8), to: input))
        close(input)
        #expect(child.wait(limit: .seconds(30)) == .exited(status: 0))
        #expect(Self.readAll(output) == "/tmp\n")
        #expect(Self.readAll(error) == "to-error\n")
    }

    @Test("a descriptor given is the child's stream; streams not asked for as pipes have none here")
    func descriptor() throws {
        let first = try SpawnedProcess(executable: "/bin/echo", arguments: ["given"], standardOutput: .pipe)
        let output = try #require(first.pipes.output)
        first.wait()
        let second = try SpawnedProcess(executable: "/bin/cat", arguments: [], standardInput: .descriptor(output), standardOutput: .pipe)
        close(output)
        #expect(second.pipes.input == nil && second.pipes.error == nil)
        #expect(second.wait(limit: .seconds(30)) == .exited(status: 0))
        #expect(Self.readAll(second.pipes.output ?? -1) == "given\n")
    }

    /// Everything `descriptor` gives until its end, as text; closes it.
    static func readAll(_ descriptor: Int32) -> String {
        defer { close(descriptor) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while case let count = read(descriptor, &chunk, chunk.count), count > 0 { text += chunk[..<count] }
        return String(decoding: text, as: UTF8.self)
    }

    @Test("an exit status and a signal are told apart")
    func termination() throws {
        #expect(try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", "exit 3"]).wait(limit: .seconds(30)) == .exited(status: 3))
        #expect(try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", "kill -9 $$"]).wait(limit: .seconds(30)) == .signalled(SIGKILL))
    }

    @Test("a wait has its limit; a stop ends the child")
    func stop() throws {
        let child = try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", "sleep 30 & wait"])
        #expect(child.wait(limit: .milliseconds(50)) == nil)
        #expect(child.isRunning)
        child.stop()
        #expect(child.ended == .signalled(SIGTERM))
        let alone = try SpawnedProcess(executable: "/bin/sleep", arguments: ["30"])
        alone.stop(group: false)
        #expect(alone.ended == .signalled(SIGTERM))
    }

    /// The state /proc gives process `pid` ("Z" a zombie), or "gone".
    static func state(of pid: pid_t) -> String {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "gone"
    }

    /// Whether `descriptor` comes to its end within `limit`: the last holder of a pipe's other end is gone.
    static func ends(_ descriptor: Int32, within limit: Duration) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        return poll(&waiting, 1, Int32(limit.components.seconds * 1000)) == 1 && read(descriptor, &byte, 1) == 0
    }

    @Test("an ended child stays a zombie, its ID its own, until it is released; then nothing runs under its ID and it is reaped")
    func heldUntilReleased() throws {
        let child = try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", "exit 3"])
        // Its end is known while it is still a zombie: a child reaped before its end is told is gone here.
        #expect(child.wait(limit: .seconds(30)) == .exited(status: 3))
        let pid = child.processIdentifier
        #expect(child.whileUnreaped { Self.state(of: $0) } == "Z")
        child.release()
        #expect(child.whileUnreaped { $0 } == nil)
        let deadline = ContinuousClock.now + .seconds(30)
        while Self.state(of: pid) == "Z" && ContinuousClock.now < deadline {}
        #expect(Self.state(of: pid) != "Z")
    }

    @Test("what an ended child left in its group is reached until it is released, and killed as it is, however long after its end")
    func leftovers() throws {
        for release in [true, false] {
            // The sleep left behind holds the output pipe: its end is the sleep's.
            let child = try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", "sleep 30 & exit 3"], standardOutput: .pipe)
            let output = try #require(child.pipes.output)
            defer { close(output) }
            #expect(child.wait(limit: .seconds(30)) == .exited(status: 3))
            #expect(!Self.ends(output, within: .zero), "the sleep went with its parent")
            if release { child.release() } else { child.signalGroup(SIGTERM) }
            #expect(Self.ends(output, within: .seconds(10)), release ? "released" : "signalled")
            child.release()
        }
    }

    @Test("an environment given is the child's whole environment")
    func environment() throws {
        let child = try SpawnedProcess(executable: "/usr/bin/env", arguments: [], environment: ["ONLY": "this"], standardOutput: .pipe)
        child.wait()
        #expect(Self.readAll(child.pipes.output ?? -1) == "ONLY=this\n")
    }

    @Test("a program that is not there is an error naming it, not a child")
    func missing() {
        #expect {
            try SpawnedProcess(executable: "/nonexistent/decaf-testee", arguments: [])
        } throws: { error in
            "\(error)".contains("/nonexistent/decaf-testee")
        }
    }
}
