import DecafNIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program a test starts, talks to while it runs (a peer, a proxy), and stops with a signal.
/// Every wait has a limit: a child that does not start or does not stop fails its test, and is
/// killed, instead of holding up the run.
public final class RunningChild: Sendable {
    private let process: SpawnedProcess
    private let output: OutputDrain
    private let errors: OutputDrain
    private let streams = DispatchGroup()
    private let command: [String]

    /// The child did not do what was awaited in time.
    public struct Stalled: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `executable` with `arguments` in `directory`; what it prints on standard output and
    /// standard error is kept.
    public init(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws {
        command = [executable.lastPathComponent] + arguments
        process = try SpawnedProcess(executable: executable.path, arguments: arguments, directory: directory?.path, standardOutput: .pipe, standardError: .pipe)
        output = OutputDrain(process.pipes.output ?? -1, streams)
        errors = OutputDrain(process.pipes.error ?? -1, streams)
    }

    /// Starts `decaf` with `arguments`.
    public convenience init(decaf arguments: [String]) throws {
        try self.init(FixturePaths.decafExecutable, arguments)
    }

    /// The first line the child prints, such as the address it listens on.
    public func firstLine(limit: Duration = .seconds(30)) async throws -> String {
        let deadline = Date.now.addingTimeInterval(Double(limit.components.seconds) + 1)
        let line = try await ChildProcess.offCooperativeThreads { [output] in output.firstLine(by: deadline) }
        guard let line else {
            await end()
            throw Stalled(description: "`\(command.joined(separator: " "))` printed no line in \(limit)")
        }
        return line
    }

    /// The first line on standard output that contains `text`, once it has come, such as the
    /// proxy's second line naming its control API; throws if it has not come within `limit`.
    public func outputLine(containing text: String, limit: Duration = .seconds(30)) async throws -> String {
        let deadline = Date.now.addingTimeInterval(Double(limit.components.seconds) + 1)
        let line = try await ChildProcess.offCooperativeThreads { [output] in output.line(where: { $0.contains(text) }, count: 1, by: deadline) }
        guard let line else {
            throw Stalled(description: "`\(command.joined(separator: " "))` printed no line with '\(text)' in \(limit)")
        }
        return line
    }

    /// The `count`-th line on standard error that contains `text`, once it has come, such as a
    /// peer's log of a connection closed; throws if it has not come within `limit`.
    @discardableResult
    public func errorLine(containing text: String, count: Int = 1, limit: Duration = .seconds(30)) async throws -> String {
        let deadline = Date.now.addingTimeInterval(Double(limit.components.seconds) + 1)
        let line = try await ChildProcess.offCooperativeThreads { [errors] in errors.line(where: { $0.contains(text) }, count: count, by: deadline) }
        guard let line else {
            throw Stalled(description: "`\(command.joined(separator: " "))` printed no line with '\(text)' on standard error in \(limit)")
        }
        return line
    }

    /// Sends `signal` (SIGSTOP, SIGCONT, SIGINT) to the child while it is not yet reaped, so no other
    /// process that took its ID gets it.
    public func signal(_ signal: Int32) {
        process.signal(signal)
    }

    /// The CPU the child has used so far; throws once it is reaped.
    public func times() throws -> ProcessTimes {
        try ProcessTimes(of: process)
    }

    /// Sends `signal` and waits for the child to exit; kills it and throws if it has not within
    /// `limit`. Returns how it ended and everything it printed.
    public func stop(signal: Int32 = SIGINT, limit: Duration = .seconds(30)) async throws -> ChildProcess.Run {
        process.signal(signal)
        return try await wait(limit: limit, after: "signal \(signal)")
    }

    /// Waits for the child to exit by itself; kills it and throws if it has not within `limit`.
    public func wait(limit: Duration) async throws -> ChildProcess.Run {
        try await wait(limit: limit, after: "it was started")
    }

    /// Ends a child that overran its limit: SIGTERM first, so a decaf that started servers or
    /// testees of its own stops them (SIGKILL would leave them running), SIGKILL 5 s later.
    private func end() async {
        _ = try? await ChildProcess.offCooperativeThreads { [process] in process.stop(grace: .seconds(5)) }
    }

    /// The run's `lifetime` is how long the child took to exit from the call (from the signal, for
    /// `stop`), measured on a thread of its own.
    private func wait(limit: Duration, after event: String) async throws -> ChildProcess.Run {
        let called = ContinuousClock.now
        let ended = try await ChildProcess.offCooperativeThreads { [process, streams] () -> (SpawnedProcess.Termination, ContinuousClock.Instant)? in
            guard let termination = process.wait(limit: limit) else { return nil }
            let ended = ContinuousClock.now
            _ = streams.wait(timeout: .now() + .seconds(10))
            return (termination, ended)
        }
        guard let (termination, ended) = ended else {
            await end()
            throw Stalled(description: "`\(command.joined(separator: " "))` was still running \(limit) after \(event); it was killed")
        }
        return ChildProcess.Run(termination, output: output.bytes, error: errors.bytes, lifetime: ended - called, ended: ended)
    }
}
