import Foundation

/// How the suite starts a testee (a `SpawnedProcess`): through env(1), so a command is looked up
/// on PATH as a shell would. env answers for a command it could not start with a status of its own.
public enum TesteeLaunch {
    /// The program every testee command is run with.
    package static let executable = "/usr/bin/env"

    /// The environment a testee (or a server the fuzzer restarts) starts with: the suite's own,
    /// `extra` added, and a Swift runtime's crash backtrace off unless SWIFT_BACKTRACE says
    /// otherwise. The backtrace keeps a crashed Swift program alive for seconds (longer on a
    /// loaded machine), its connections open, so that a crash would be taken for a hang; the
    /// runtime's one-line "Fatal error" is still written.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        return environment
    }

    /// env's status for a program it cannot find (127) or cannot run (126): the testee never
    /// started, which is the suite's problem to report, not a verdict on the testee.
    static func neverStarted(status: Int32) -> Bool {
        status == 126 || status == 127
    }

    /// The signal a status above 128 stands for: what a shell (`sh -c`, a wrapper script) exits
    /// with when the program it ran was killed by a signal; nil for any other status.
    static func signal(inShellStatus status: Int32) -> Int32? {
        (129...192).contains(status) ? status - 128 : nil
    }
}
