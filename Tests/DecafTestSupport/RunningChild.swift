import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program a test starts, talks to while it runs (a peer, a proxy), and stops with a signal.
/// Every wait has a limit: a child that does not start or does not stop fails its test, and is
/// killed, instead of holding up the run. (Unchecked: Process is only read here once it has exited.)
public final class RunningChild: @unchecked Sendable {
    private let process: Process
    private let output: OutputDrain
    private let errors: OutputDrain
    private let streams = DispatchGroup()
    private let exited = DispatchSemaphore(value: 0)
    private let command: [String]

    /// The child did not do what was awaited in time.
    public struct Stalled: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `executable` with `arguments` in `directory`; what it prints on standard output and
    /// standard error is kept.
    public init(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        command = [executable.lastPathComponent] + arguments
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        output = OutputDrain(pipe.fileHandleForReading, streams)
        errors = OutputDrain(errorPipe.fileHandleForReading, streams)
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
            kill(process.processIdentifier, SIGKILL)
            throw Stalled(description: "`\(command.joined(separator: " "))` printed no line in \(limit)")
        }
        return line
    }

    /// The first line on standard error that contains `text`, once it has come, such as a peer's
    /// log of a connection closed; throws if none has come within `limit`.
    @discardableResult
    public func errorLine(containing text: String, limit: Duration = .seconds(30)) async throws -> String {
        let deadline = Date.now.addingTimeInterval(Double(limit.components.seconds) + 1)
        let line = try await ChildProcess.offCooperativeThreads { [errors] in errors.line(where: { $0.contains(text) }, by: deadline) }
        guard let line else {
            throw Stalled(description: "`\(command.joined(separator: " "))` printed no line with '\(text)' on standard error in \(limit)")
        }
        return line
    }

    /// Sends `signal` and waits for the child to exit; kills it and throws if it has not within
    /// `limit`. Returns how it ended and everything it printed.
    public func stop(signal: Int32 = SIGINT, limit: Duration = .seconds(30)) async throws -> ChildProcess.Run {
        kill(process.processIdentifier, signal)
        let (seconds, attoseconds) = limit.components
        let stopped = try await ChildProcess.offCooperativeThreads { [exited, streams] in
            guard exited.wait(timeout: .now() + .seconds(Int(seconds)) + .nanoseconds(Int(attoseconds / 1_000_000_000))) == .success else { return false }
            _ = streams.wait(timeout: .now() + .seconds(10))
            return true
        }
        guard stopped else {
            kill(process.processIdentifier, SIGKILL)
            throw Stalled(description: "`\(command.joined(separator: " "))` was still running \(limit) after signal \(signal); it was killed")
        }
        return ChildProcess.Run(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                                output: output.bytes, error: errors.bytes)
    }
}
