import DecafNIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The CPU a running process has used so far (user and system), read from /proc: to tell a
/// process that waits from one that spins.
public struct ProcessTimes: Sendable {
    public let cpu: Duration

    public struct Unreadable: Error {}

    /// Read while `process` is not yet reaped, so never another process's that took its ID.
    public init(of process: SpawnedProcess) throws {
        guard let read = process.whileUnreaped({ try? String(contentsOfFile: "/proc/\($0)/stat", encoding: .utf8) }), let stat = read else { throw Unreadable() }
        // The command name (field 2) may hold spaces; the fields after its closing parenthesis are plain.
        guard let close = stat.lastIndex(of: ")") else { throw Unreadable() }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15, the 12th and 13th after the name.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { throw Unreadable() }
        let ticks = Int(sysconf(Int32(_SC_CLK_TCK)))
        cpu = .milliseconds((user + system) * 1000 / max(1, ticks))
    }
}
