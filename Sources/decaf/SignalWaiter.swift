import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT or SIGTERM, so a long-running command can shut down gracefully.
enum SignalWaiter {
    /// Returns the signal that arrived.
    static func wait() async -> Int32 {
        let (signals, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        var iterator = signals.makeAsyncIterator()
        let number = await iterator.next() ?? SIGTERM
        sources.forEach { $0.cancel() }
        return number
    }
}
