import CSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program started with posix_spawn that holds only the descriptors it is given: standard
/// input, output and error. Foundation's Process lists this process's open descriptors and has the
/// child close them, so a socket another thread opened between the listing and the spawn went
/// along with the child (SwiftNIO's sockets do not close on exec); a connection closed here then
/// sent no FIN for as long as the child lived, a testee or a restarted server taken for a peer
/// that never ends its stream. Here the child closes every descriptor from 3 up as it starts
/// (`posix_spawn_file_actions_addclosefrom_np`), after its three streams are in place. It starts
/// with every signal's default handling and none blocked, as from a shell, and, as with Process,
/// leads a process group of its own, so a signal can reach what it starts.
public final class SpawnedProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// This process's own.
        case inherited
        /// /dev/null.
        case null
        /// A descriptor of this process, which stays open here (the caller closes its copy).
        case descriptor(Int32)
        /// A new pipe: the child holds one end, this process the other (see `pipes`).
        case pipe
    }

    /// This process's ends of the pipes the child was started with (`Stream.pipe`): its standard
    /// input to write, its output and error to read; nil for a stream given otherwise. They close
    /// on exec, so no other child gets them; the caller owns them and closes them.
    public struct Pipes: Sendable {
        /// The write end of the child's standard input.
        public var input: Int32?
        /// The read end of its standard output.
        public var output: Int32?
        /// The read end of its standard error.
        public var error: Int32?
    }

    /// How the child ended.
    public enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// It exited with `status`.
        case exited(status: Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// `exited with status 1`, `was killed by signal 9`.
        public var description: String {
            switch self {
            case let .exited(status): "exited with status \(status)"
            case let .signalled(signal): "was killed by signal \(signal)"
            }
        }
    }

    /// The child could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// Why, in the user's words.
        public let description: String
    }

    /// The child's process ID, and its process group's.
    public let processIdentifier: pid_t
    /// This process's ends of the child's pipes.
    public let pipes: Pipes
    /// Waits for the child's end, and reaps it once it is released (by `stop`, `release`, or the
    /// end of this object).
    private let reaper: ChildReaper

    /// Starts `executable` (a path, not looked up) with `arguments`, in `directory` when given,
    /// with `environment` (this process's own when nil). `onExit` hears how it ended, on the
    /// thread that waits for it. Once ended, the child stays unreaped until it is released (`stop`,
    /// `release`, or the end of this object), so its process group can be signalled until then.
    public init(executable: String, arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null,
                onExit: (@Sendable (Termination) -> Void)? = nil) throws(Failure) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's ends of its pipes close here once it has started; ours too if it has not.
        var ours: [Int32?] = [nil, nil, nil], theirs: [Int32] = []
        var started = false
        defer {
            for descriptor in theirs { close(descriptor) }
            if !started { for descriptor in ours.compactMap(\.self) { close(descriptor) } }
        }
        for (index, (stream, target)) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)].enumerated() {
            switch stream {
            case .inherited: break
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            case let .descriptor(descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .pipe:
                let (read, write) = try Self.pipe()
                let (mine, child) = target == STDIN_FILENO ? (write, read) : (read, write)
                ours[index] = mine
                theirs.append(child)
                posix_spawn_file_actions_adddup2(&actions, child, target)
            }
        }
        decaf_spawn_add_close_from(&actions, 3)
        if let directory { decaf_spawn_add_chdir(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // As a shell starts a program: every signal handled the default way and none blocked,
        // whatever this thread blocks or this process ignores (SIGPIPE, a test runner's SIGTERM).
        var defaults = sigset_t(), none = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for argument in argv { free(argument) }
            for variable in envp ?? [] { free(variable) }
        }
        var pid: pid_t = 0
        let result = envp.map { posix_spawn(&pid, executable, &actions, &attributes, argv, $0) } ?? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))") }
        started = true
        processIdentifier = pid
        pipes = Pipes(input: ours[0], output: ours[1], error: ours[2])
        reaper = ChildReaper(pid, onExit: onExit)
    }

    deinit {
        reaper.release(endingGroup: false)
    }

    /// How the child ended; nil while it runs.
    public var ended: Termination? { reaper.ended }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { ended == nil }

    /// Waits until the child has ended, at most `limit`; nil if it still runs.
    @discardableResult
    public func wait(limit: Duration) -> Termination? {
        reaper.wait(limit: limit)
    }

    /// Waits until the child has ended.
    @discardableResult
    public func wait() -> Termination {
        reaper.wait()
    }

    /// Runs `body` with the child's process ID while it is the child's (the child runs, or has
    /// ended and is not yet reaped), so a file under /proc or a signal reaches no other process or
    /// thread that took the ID after it; nil once the child is reaped. The child is not reaped
    /// while `body` runs.
    @discardableResult
    public func whileUnreaped<T: Sendable>(_ body: (pid_t) -> T) -> T? {
        reaper.whileUnreaped(body)
    }

    /// Sends `signal` to the child, until it is reaped.
    public func signal(_ signal: Int32) {
        whileUnreaped { kill($0, signal) }
    }

    /// Sends `signal` to the child's process group (the child, if it runs, and what it started),
    /// until the child is released: the group's ID is the child's own until then.
    public func signalGroup(_ signal: Int32) {
        whileUnreaped { kill(-$0, signal) }
    }

    /// Lets the child be reaped once it has ended (at once if it has). With `endingGroup`, what it
    /// left running in its process group is killed first, however long after its end this comes:
    /// the group's ID is still its own. Only the first release counts.
    public func release(endingGroup: Bool = true) {
        reaper.release(endingGroup: endingGroup)
    }

    /// Stops the child: SIGTERM, then SIGKILL when it has not ended within `grace`; returns once it
    /// has ended, and releases it. With `group`, the signals go to its process group, and what is
    /// left of the group is killed as it is released, so what it started goes too.
    public func stop(grace: Duration = .seconds(1), group: Bool = true) {
        let send = group ? signalGroup : signal
        if isRunning {
            send(SIGTERM)
            if wait(limit: grace) == nil { send(SIGKILL) }
            wait()
        }
        release(endingGroup: group)
    }

    /// Writes all of `bytes` to `descriptor` (a child's standard input); false when its reader is
    /// gone (EPIPE: SIGPIPE has to be ignored here).
    public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        guard descriptor >= 0 else { return false }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// A pipe whose ends close on exec, so that only a child given an end holds it: (read, write).
    private static func pipe() throws(Failure) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard decaf_pipe_closing_on_exec(&descriptors) == 0 else { throw Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        return (descriptors[0], descriptors[1])
    }
}
