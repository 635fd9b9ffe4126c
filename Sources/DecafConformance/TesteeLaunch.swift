import Foundation

/// How the suite starts a testee: through env(1), so a command is looked up on PATH as a shell
/// would. env answers for a command it could not start with a status of its own.
enum TesteeLaunch {
    /// The program every testee command is run with.
    static let executable = URL(fileURLWithPath: "/usr/bin/env")

    /// env's status for a program it cannot find (127) or cannot run (126): the testee never
    /// started, which is the suite's problem to report, not a verdict on the testee.
    static func neverStarted(status: Int32) -> Bool {
        status == 126 || status == 127
    }
}
