import DecafConformance
import Foundation
import Synchronization

/// Starts the server under test again when it died (`--restart COMMAND`), as boofuzz's process
/// monitor does: the command runs through `/bin/sh -c exec ...`, so the server is the child
/// itself, its output goes to a log, and the fuzzer stops it when the campaign ends.
public final class ServerRestart: Sendable {
    public let command: String
    public let log: URL
    private let child = Mutex<Process?>(nil)

    public init(command: String, log: URL) {
        self.command = command
        self.log = log
    }

    /// Stops the server this started, if it still runs, and starts the command again.
    public func restart() throws(FuzzError) {
        stop()
        let process = Process()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments = ["-c", "exec " + command]
        process.environment = TesteeLaunch.environment()
        try? FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        guard let output = try? FileHandle(forWritingTo: log) else { throw .cannotStart("cannot write the server's log \(log.path)") }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw .cannotStart("--restart \(command): \(error.localizedDescription)") }
        child.withLock { $0 = process }
    }

    /// Stops the server this started: SIGTERM, then SIGKILL if it is still there a second later.
    public func stop() {
        guard let process = child.withLock({ current -> Process? in
            defer { current = nil }
            return current
        }), process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// What the server said last (`LastWords`).
    public var lastWords: String {
        guard let data = FileManager.default.contents(atPath: log.path) else { return "" }
        return LastWords.of(String(decoding: data.suffix(16_384), as: UTF8.self))
    }
}
