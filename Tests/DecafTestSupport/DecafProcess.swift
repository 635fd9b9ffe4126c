import Foundation

/// The built `decaf` executable, run as a user runs it.
public enum DecafProcess {
    public struct Run: Sendable {
        /// The exit status, or the signal that ended it when `signalled`.
        public var status: Int32
        public var signalled: Bool
        public var output: String
        public var error: String
        /// The standard output exactly, for commands that write bytes.
        public var outputBytes: [UInt8]
        /// From the start to the exit (see `ChildProcess.Run.lifetime`).
        public var lifetime: Duration
        /// Its peak resident memory, in bytes.
        public var peakMemory = 0
    }

    /// Runs `decaf` with `arguments`, `input` on its standard input, and waits for it to exit;
    /// throws `ChildProcess.TimedOut` if it is still running after `limit`. With
    /// `measuringOwnMemory`, `peakMemory` is decaf's own, without the testees it started.
    public static func run(_ arguments: [String], input: Data? = nil, limit: Duration = .seconds(120), measuringOwnMemory: Bool = false) async throws -> Run {
        let run = try await ChildProcess.run(FixturePaths.decafExecutable, arguments, input: input, limit: limit, measuringOwnMemory: measuringOwnMemory)
        return Run(status: run.status, signalled: run.signalled, output: String(decoding: run.output, as: UTF8.self),
                   error: String(decoding: run.error, as: UTF8.self), outputBytes: run.output, lifetime: run.lifetime, peakMemory: run.peakMemory)
    }
}
