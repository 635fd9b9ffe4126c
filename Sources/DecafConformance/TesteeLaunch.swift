import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How the suite starts a testee: through env(1), so a command is looked up on PATH as a shell
/// would. env answers for a command it could not start with a status of its own.
public enum TesteeLaunch {
    /// The program every testee command is run with.
    static let executable = URL(fileURLWithPath: "/usr/bin/env")

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

    /// env's arguments for running a codec testee's `command`: with every signal's handling reset
    /// to the default and none blocked (`--default-signal`, coreutils 8.31 and later), since a
    /// process started from one of the suite's threads would otherwise inherit that thread's
    /// blocked signals and the ignored SIGINT and SIGTERM of a run that catches them, and then
    /// neither die of its own abort() nor stop at SIGTERM. An env without the option runs
    /// `command` as it is. (Client testees are still started as they were: a fresh-clone run of
    /// the client fault tests failed once with it, unexplained yet.)
    static func arguments(_ command: [String]) -> [String] {
        (resetsSignals ? ["--default-signal"] : []) + command
    }

    /// Whether this machine's env has `--default-signal`: asked once.
    private static let resetsSignals: Bool = {
        let probe = Process()
        probe.executableURL = executable
        probe.arguments = ["--default-signal", "true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

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

    /// Sends `signal` to the testee and everything it started: Foundation starts every process
    /// in a process group of its own, so a shell's children, or a client's helpers, go too.
    static func signal(_ process: Process, _ signal: Int32) {
        kill(-process.processIdentifier, signal)
    }

    /// Stops the testee and what it started: SIGTERM, then SIGKILL when it has not exited within
    /// `grace`; returns once it has. What is left of its group is killed.
    static func stop(_ process: Process, grace: Duration = .seconds(1)) {
        if process.isRunning {
            signal(process, SIGTERM)
            let deadline = ContinuousClock.now + grace
            while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
            if process.isRunning { signal(process, SIGKILL) }
            process.waitUntilExit()
        }
        signal(process, SIGKILL)
    }
}
