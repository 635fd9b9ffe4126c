import Foundation

/// The built `decaf` executable, run as a user runs it.
public enum DecafProcess {
    public struct Run: Sendable {
        public var status: Int32
        public var output: String
        public var error: String
        /// The standard output exactly, for commands that write bytes.
        public var outputBytes: [UInt8]
    }

    /// Runs `decaf` with `arguments`, `input` on its standard input, and waits for it to exit.
    public static func run(_ arguments: [String], input: Data? = nil) throws -> Run {
        let process = Process()
        process.executableURL = FixturePaths.decafExecutable
        process.arguments = arguments
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(input ?? Data())
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), error: String(decoding: err, as: UTF8.self),
                   outputBytes: Array(out))
    }
}
