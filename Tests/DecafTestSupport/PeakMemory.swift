import DecafNIO
import Foundation
import Synchronization

/// The peak resident memory of a running process of its own (its VmHWM in /proc, which its
/// children's memory does not enter), read every 50 ms on a thread of its own until it ends: what
/// a command held at most, within the last 50 ms of its life. Each reading is taken while the
/// process is not yet reaped, so it is never that of a process or thread that took its ID after it
/// (a thread of the test run itself reads as the whole test run's memory).
public final class PeakMemory: Sendable {
    private let peak = Mutex(0)

    public init(of process: SpawnedProcess) {
        Thread { [self] in
            while process.isRunning, let status = process.whileUnreaped({ try? String(contentsOfFile: "/proc/\($0)/status", encoding: .utf8) }) {
                if let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                   let kibibytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") {
                    peak.withLock { $0 = max($0, kibibytes * 1024) }
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }.start()
    }

    /// The most it held, in bytes, as last read.
    public var bytes: Int { peak.withLock { $0 } }
}
