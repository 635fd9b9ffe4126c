import DecafTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run of `decaf` that may not end by itself (a peer, a client retrying), stopped with SIGKILL
/// after a time limit. Output goes to files, so a command that writes a lot cannot block on a full
/// pipe.
struct BoundedRun: Sendable {
    enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// It died of this signal, sent by itself or the system: a crash.
        case signalled(Int32)
        /// It was still running at the limit and was stopped there.
        case stoppedAtLimit
    }

    var arguments: [String]
    var ending: Ending
    var standardError: String

    /// Runs `decaf` with `arguments` in `directory`, standard input empty, for at most `limit`.
    static func run(_ arguments: [String], in directory: URL, limit: Duration) -> BoundedRun {
        let process = Process()
        process.executableURL = FixturePaths.decafExecutable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errorFile = directory.appending(path: "stderr")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil), let errors = try? FileHandle(forWritingTo: errorFile) else {
            return BoundedRun(arguments: arguments, ending: .exited(-1), standardError: "cannot create \(errorFile.path)")
        }
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            return BoundedRun(arguments: arguments, ending: .exited(-1), standardError: "cannot start decaf: \(error)")
        }
        let (seconds, attoseconds) = limit.components
        var stopped = false
        if exited.wait(timeout: .now() + .seconds(Int(seconds)) + .nanoseconds(Int(attoseconds / 1_000_000_000))) == .timedOut {
            stopped = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        try? errors.close()
        let text = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        let ending: Ending = stopped ? .stoppedAtLimit
            : process.terminationReason == .uncaughtSignal ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
        return BoundedRun(arguments: arguments, ending: ending, standardError: text)
    }
}
