import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM, caught from the moment `install()` returns, so a long-running command can
/// shut down gracefully. Installed before the command prints that it is ready, so a signal a script
/// sends as soon as it reads that line is never lost: a signal source only catches signals once
/// it is registered, which happens later, on another thread.
struct SignalWaiter: Sendable {
    private let signals: AsyncStream<Int32>
    private let sources: Sources

    /// The signal sources: only cancelled once set up, which Dispatch allows from any thread.
    private final class Sources: @unchecked Sendable {
        let list: [DispatchSourceSignal]
        init(_ list: [DispatchSourceSignal]) { self.list = list }
    }

    private init(signals: AsyncStream<Int32>, sources: [DispatchSourceSignal]) {
        self.signals = signals
        self.sources = Sources(sources)
    }

    /// Turns off the default action of SIGINT and SIGTERM and returns once both are caught.
    static func install() async -> SignalWaiter {
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            sources.append(source)
        }
        return SignalWaiter(signals: signals, sources: sources)
    }

    /// Returns the first signal that arrived.
    func wait() async -> Int32 {
        await next() ?? SIGTERM
    }

    /// Returns the first signal that arrived, or nil when the task was cancelled first.
    func next() async -> Int32? {
        var iterator = signals.makeAsyncIterator()
        let number = await iterator.next()
        sources.list.forEach { $0.cancel() }
        return Task.isCancelled ? nil : number
    }

    /// Runs `operation` until it returns or SIGINT or SIGTERM comes; a signal cancels it, and what
    /// it returns then (a run's results so far) is kept.
    func interrupting<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = Task { try await operation() }
        let watcher = Task {
            if await next() != nil { task.cancel() }
        }
        defer { watcher.cancel() }
        return try await task.value
    }
}
