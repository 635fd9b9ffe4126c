import DecafConformance
import DecafNIO
import Foundation
import Synchronization

/// Starts the server under test again when it died (`--restart COMMAND`), as boofuzz's process
/// monitor does: the command runs through `/bin/sh -c exec ...`, so the server is the child
/// itself, its output goes to a log, and the fuzzer stops it when the campaign ends.
public final class ServerRestart: Sendable {
    public let command: String
    public let log: URL
    private let child = Mutex<SpawnedProcess?>(nil)

    public init(command: String, log: URL) {
        self.command = command
        self.log = log
    }

    /// Stops the server this started, if it still runs, and starts the command again, with
    /// `environment` added to Decaf's (an AFL++ coverage map's name, `AFLSharedMemory`).
    public func restart(adding environment: [String: String] = [:]) throws(FuzzError) {
        stop()
        try? FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        let output = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw .cannotStart("cannot write the server's log \(log.path)") }
        defer { close(output) }
        do {
            let process = try SpawnedProcess(executable: "/bin/sh", arguments: ["-c", "exec " + command], environment: TesteeLaunch.environment(environment),
                                             standardInput: .null, standardOutput: .descriptor(output), standardError: .descriptor(output))
            child.withLock { $0 = process }
        } catch {
            throw .cannotStart("--restart \(command): \(error.description)")
        }
    }

    /// Stops the server this started: SIGTERM, then SIGKILL if it is still there a second later.
    public func stop() {
        guard let process = child.withLock({ current -> SpawnedProcess? in
            defer { current = nil }
            return current
        }) else { return }
        process.stop(group: false)
    }

    /// What the server said last (`LastWords`).
    public var lastWords: String {
        guard let data = FileManager.default.contents(atPath: log.path) else { return "" }
        return LastWords.of(String(decoding: data.suffix(16_384), as: UTF8.self))
    }
}
