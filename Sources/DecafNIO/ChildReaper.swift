import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Waits on its own thread for a spawned child to end, and reaps it only once it is released. Until
/// then the ended child stays a zombie, so its process ID, and the ID of the process group it
/// leads, stay its own: a signal to either, or a file read under /proc, reaches no process, thread
/// or group that took the number after it. How it ended is known as soon as it ends (waitid with
/// WNOWAIT). The thread holds this object, not the `SpawnedProcess`, whose end releases it.
final class ChildReaper: Sendable {
    private let processIdentifier: pid_t
    private let termination = Mutex<SpawnedProcess.Termination?>(nil)
    /// Where the child is between its release and its reaping.
    private struct State {
        var released = false
        /// Whether what is left of its group is killed before it is reaped.
        var endsGroup = false
        /// Set just before it is reaped: nothing is sent to its ID or read under it after.
        var reaped = false
    }

    private let state = Mutex(State())
    /// Left once the child has ended.
    private let running = DispatchGroup()
    /// Signalled once, when the child is released.
    private let release = DispatchSemaphore(value: 0)

    /// Starts waiting for `pid`; `onExit` hears how it ended, on the waiting thread.
    init(_ pid: pid_t, onExit: (@Sendable (SpawnedProcess.Termination) -> Void)?) {
        processIdentifier = pid
        running.enter()
        Thread { [self] in
            let ended = Self.awaitEnd(of: pid)
            termination.withLock { $0 = ended }
            running.leave()
            onExit?(ended)
            release.wait()
            state.withLock { state in Self.markReaped(pid, &state) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }.start()
    }

    /// Waits for `pid` to end without reaping it, and says how it ended.
    private static func awaitEnd(of pid: pid_t) -> SpawnedProcess.Termination {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 {
            // Only an interruption is worth another wait; anything else means it is gone.
            if errno != EINTR { return .exited(status: -1) }
        }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? .exited(status: status) : .signalled(status)
    }

    /// How the child ended; nil while it runs.
    var ended: SpawnedProcess.Termination? { termination.withLock { $0 } }

    /// Waits until the child has ended, at most `limit`; nil if it still runs.
    func wait(limit: Duration) -> SpawnedProcess.Termination? {
        let (seconds, attoseconds) = max(limit, .zero).components
        _ = running.wait(timeout: .now() + .seconds(Int(clamping: seconds)) + .nanoseconds(Int(attoseconds / 1_000_000_000)))
        return ended
    }

    /// Waits until the child has ended.
    func wait() -> SpawnedProcess.Termination {
        running.wait()
        return ended ?? .exited(status: -1)
    }

    /// Runs `body` with the child's process ID while it is not reaped; nil once it is.
    func whileUnreaped<T: Sendable>(_ body: (pid_t) -> T) -> T? {
        state.withLock { state in state.reaped ? nil : body(processIdentifier) }
    }

    /// Lets the child be reaped once it has ended; with `endingGroup`, what is left in its process
    /// group is killed first. When it has ended already, both are done before this returns. Only
    /// the first call counts.
    func release(endingGroup: Bool) {
        let hasEnded = ended != nil
        let first = state.withLock { state in
            guard !state.released else { return false }
            state.released = true
            state.endsGroup = endingGroup
            if hasEnded { Self.markReaped(processIdentifier, &state) }
            return true
        }
        if first { release.signal() }
    }

    /// Kills what is left of the ended child's group when that was asked, and marks the child
    /// reaped: nothing is sent to its ID or read under it after this, so it may be reaped.
    private static func markReaped(_ pid: pid_t, _ state: inout State) {
        guard !state.reaped else { return }
        if state.endsGroup { kill(-pid, SIGKILL) }
        state.reaped = true
    }
}
