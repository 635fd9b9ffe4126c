import DecafNIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program a test runs to completion: off Swift's cooperative threads (tests share the few there
/// are, and a test blocking one holds up the others), with its output and error read as they come
/// (a child filling one pipe while the test reads the other would wait forever), and within a time
/// limit, so a child that hangs fails its test with its name instead of holding up the whole run.
public enum ChildProcess {
    /// How a run ended and what it printed.
    public struct Run: Sendable {
        /// The exit status, or the signal that ended it when `signalled`.
        public var status: Int32
        public var signalled: Bool
        public var output: [UInt8]
        public var error: [UInt8]
        /// From the start to the exit, as a thread of its own saw them: not lengthened by a test
        /// that waits for the cooperative threads to resume it.
        public var lifetime: Duration = .zero
        /// When the exit was seen, on that thread.
        public var ended = ContinuousClock.now
        /// Its own peak resident memory (VmHWM, not its children's), in bytes, as last read while it
        /// ran (every 50 ms), when the run measured it; 0 otherwise. Not wait4's count: a child
        /// started with posix_spawn is charged the memory of this process at the start.
        public var peakMemory = 0

        init(_ termination: SpawnedProcess.Termination, output: [UInt8], error: [UInt8], lifetime: Duration, ended: ContinuousClock.Instant) {
            switch termination {
            case let .exited(status): (self.status, signalled) = (status, false)
            case let .signalled(signal): (self.status, signalled) = (signal, true)
            }
            self.output = output
            self.error = error
            self.lifetime = lifetime
            self.ended = ended
        }
    }

    /// The child was still running at its time limit; it has been killed.
    public struct TimedOut: Error, CustomStringConvertible {
        public var command: [String]
        public var limit: Duration
        /// What it wrote to standard error before it was killed.
        public var error: String

        public var description: String {
            "`\(command.joined(separator: " "))` was still running after \(limit) and was killed; its last words: \(error.suffix(500))"
        }
    }

    /// Runs `executable` with `arguments`, `input` on its standard input (end of input at once when
    /// nil), and returns when it has exited and its output is read. With `measuringOwnMemory`, its
    /// peak memory is its own (read from /proc while it runs), not its children's too.
    public static func run(_ executable: URL, _ arguments: [String], input: Data? = nil, in directory: URL? = nil,
                           limit: Duration = .seconds(120), measuringOwnMemory: Bool = false) async throws -> Run {
        try await offCooperativeThreads {
            try runBlocking(executable, arguments, input: input, in: directory, limit: limit, measuringOwnMemory: measuringOwnMemory)
        }
    }

    /// Runs `work`, which may block, on a thread of its own and returns its result.
    public static func offCooperativeThreads<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], input: Data?, in directory: URL?, limit: Duration,
                                    measuringOwnMemory: Bool) throws -> Run {
        // A child that exits before reading all of its input must make the write fail, not kill the tests.
        signal(SIGPIPE, SIG_IGN)
        let started = ContinuousClock.now
        let process = try SpawnedProcess(executable: executable.path, arguments: arguments, directory: directory?.path,
                                         standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        let stdin = process.pipes.input ?? -1
        let streams = DispatchGroup()
        let readOutput = OutputDrain(process.pipes.output ?? -1, streams), readError = OutputDrain(process.pipes.error ?? -1, streams)
        Thread {
            _ = SpawnedProcess.write([UInt8](input ?? Data()), to: stdin)
            close(stdin)
        }.start()
        let ownPeak = measuringOwnMemory ? PeakMemory(of: process) : nil
        guard let termination = process.wait(limit: limit) else {
            // SIGTERM first: a decaf that started servers or testees of its own stops them.
            process.stop(grace: .seconds(5))
            _ = streams.wait(timeout: .now() + .seconds(5))
            throw TimedOut(command: [executable.lastPathComponent] + arguments, limit: limit, error: String(decoding: readError.bytes, as: UTF8.self))
        }
        let ended = ContinuousClock.now
        let lifetime = ended - started
        // A grandchild may keep a pipe open; what the child wrote is read by then.
        _ = streams.wait(timeout: .now() + .seconds(10))
        var run = Run(termination, output: readOutput.bytes, error: readError.bytes, lifetime: lifetime, ended: ended)
        run.peakMemory = ownPeak?.bytes ?? 0
        return run
    }
}
