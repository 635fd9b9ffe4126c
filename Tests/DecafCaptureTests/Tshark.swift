import DecafTestSupport
import Foundation

/// tshark, when installed (`make deps` installs it): runs it and reports what it printed.
enum Tshark {
    /// Runs tshark with `arguments` to completion: standard output and standard error.
    static func run(_ arguments: [String]) async throws -> (output: String, error: String) {
        guard let path = ExternalTool.tshark.path else { throw CocoaError(.executableNotLoadable) }
        let run = try await ChildProcess.run(URL(filePath: path), arguments, limit: .seconds(300))
        return (String(decoding: run.output, as: UTF8.self), String(decoding: run.error, as: UTF8.self))
    }
}
