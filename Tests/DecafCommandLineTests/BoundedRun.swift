import DecafTestSupport
import Foundation

/// One run of `decaf` that may not end by itself (a peer, a client retrying), stopped with SIGKILL
/// after a time limit.
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
    static func run(_ arguments: [String], in directory: URL, limit: Duration) async -> BoundedRun {
        do {
            let run = try await ChildProcess.run(FixturePaths.decafExecutable, arguments, in: directory, limit: limit)
            return BoundedRun(arguments: arguments, ending: run.signalled ? .signalled(run.status) : .exited(run.status),
                              standardError: String(decoding: run.error, as: UTF8.self))
        } catch let timedOut as ChildProcess.TimedOut {
            return BoundedRun(arguments: arguments, ending: .stoppedAtLimit, standardError: timedOut.error)
        } catch {
            return BoundedRun(arguments: arguments, ending: .exited(-1), standardError: "cannot start decaf: \(error)")
        }
    }
}
