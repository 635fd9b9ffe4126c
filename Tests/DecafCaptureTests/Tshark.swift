import DecafTestSupport
import Foundation

/// tshark, when installed (`make deps` installs it): runs it and reports what it printed.
enum Tshark {
    /// Runs tshark with `arguments` to completion: standard output and standard error.
    static func run(_ arguments: [String]) throws -> (output: String, error: String) {
        let process = Process()
        guard let path = ExternalTool.tshark.path else { throw CocoaError(.executableNotLoadable) }
        process.executableURL = URL(filePath: path)
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
