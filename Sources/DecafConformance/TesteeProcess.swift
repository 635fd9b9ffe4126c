import DecafNIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A codec under test, started as a process and driven a line at a time over its standard input
/// and output. A testee that dies is started again for the next request. What it writes to its
/// standard error is kept in a file, so a failure can quote its last line.
final class TesteeProcess {
    let command: [String]
    private var process: SpawnedProcess?
    /// This end of the testee's standard input and of its standard output, or -1.
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var buffered: [UInt8] = []
    private let errorLog = FileManager.default.temporaryDirectory.appending(path: "decaf-testee-\(UUID().uuidString).stderr")

    /// Why a request got no answer.
    enum Failure: Error, CustomStringConvertible {
        case cannotStart(String)
        /// How it ended, and the last line of its standard error ("" if none).
        case exited(String, lastWords: String)
        case timedOut

        var description: String {
            switch self {
            case let .cannotStart(why): "the testee cannot be started: \(why)"
            case let .exited(why, lastWords): "the testee \(why) before it answered" + Self.quoting(lastWords)
            case .timedOut: "the testee did not answer in time"
            }
        }

        /// `; its standard error ended: ...`, or nothing.
        static func quoting(_ lastWords: String) -> String {
            lastWords.isEmpty ? "" : "; its standard error ended: \(lastWords)"
        }
    }

    /// Whether the run was interrupted: a wait for an answer then ends within `slice`.
    private let isCancelled: () -> Bool

    init(command: [String], isCancelled: @escaping () -> Bool = { false }) {
        self.command = command
        self.isCancelled = isCancelled
        // A write to a testee that died must fail with EPIPE, not kill the driver.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Sends `line` and returns the testee's answer line, starting the testee first if needed.
    func exchange(_ line: String, timeout: Duration) throws(Failure) -> String {
        if process?.isRunning != true { try start() }
        let bytes = Array((line + "\n").utf8)
        guard SpawnedProcess.write(bytes, to: input) else { throw stopped() }
        return try readLine(timeout: timeout)
    }

    deinit {
        try? FileManager.default.removeItem(at: errorLog)
    }

    /// Stops the testee.
    func stop() {
        if input >= 0 { close(input) }
        process?.stop()
        if output >= 0 { close(output) }
        input = -1
        output = -1
        process = nil
    }

    private func start() throws(Failure) {
        stop()
        let errors = open(errorLog.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard errors >= 0 else { throw .cannotStart("cannot create \(errorLog.path) for its standard error") }
        defer { close(errors) }
        let started: SpawnedProcess
        do {
            started = try SpawnedProcess(executable: TesteeLaunch.executable, arguments: command, environment: TesteeLaunch.environment(),
                                         standardInput: .pipe, standardOutput: .pipe, standardError: .descriptor(errors))
        } catch { throw .cannotStart(error.description) }
        process = started
        input = started.pipes.input ?? -1
        output = started.pipes.output ?? -1
        buffered = []
    }

    /// The longest one wait for the testee's output lasts before the run looks for an interruption.
    private static let slice = Duration.milliseconds(100)

    private func readLine(timeout: Duration) throws(Failure) -> String {
        let deadline = ContinuousClock.now + timeout
        // Bytes already searched for the newline: each read's bytes are searched once, so a long
        // answer (a 10 MiB payload is 20 MiB of hex) costs its length, not its length squared.
        var searched = 0
        while true {
            if let newline = buffered[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            searched = buffered.count
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, !isCancelled() else {
                stop()
                throw .timedOut
            }
            // Waits a slice at a time, so an interrupted run does not wait out the timeout.
            let (seconds, attoseconds) = min(remaining, Self.slice).components
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count <= 0 { throw stopped() }
            buffered += chunk[..<count]
            if buffered.count > 64 << 20 {
                stop()
                throw .exited("sent a line longer than 64 MiB", lastWords: "")
            }
        }
    }

    /// The failure for a testee that is gone, after reaping it.
    private func stopped() -> Failure {
        guard let process else { return .exited("is not running", lastWords: "") }
        // Its pipe closed: it is on its way out. Half a second to exit by itself, so its status is
        // its own (env's 127 for a command not found) rather than the SIGTERM of the stop.
        process.wait(limit: .milliseconds(500))
        process.stop()
        let ended = process.wait()
        let words = lastWords
        stop()
        if case let .exited(status) = ended, TesteeLaunch.neverStarted(status: status) {
            return .cannotStart("\(command.first ?? "") cannot be run (status \(status))" + Failure.quoting(words))
        }
        return .exited(ended.description, lastWords: words)
    }

    /// What the testee said last on its standard error (`LastWords`), or "".
    private var lastWords: String {
        guard let data = try? Data(contentsOf: errorLog) else { return "" }
        return LastWords.of(String(decoding: data.suffix(16_384), as: UTF8.self))
    }
}
