import Foundation

/// What a `ParallelRendering`'s dissector thread and its workers share, under one lock: the
/// batches waiting, how many were handed on and written, whether the last has come, and the sink,
/// which the worker whose turn it is writes to, one at a time. The turns are its safety: the sink
/// is not locked while it is written, so a write out of turn would interleave two batches; debug
/// builds check every turn.
final class RenderingCoordinator<Sink: OrderedByteSink>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    // Guarded by `condition`.
    private var waiting: [(number: Int, batch: CaptureBatch)] = []
    private var submitted = 0
    private var written = 0
    private var closed = false
    private var finishedWorkers = 0
    /// Written only by the worker whose turn it is (`written` is its batch's number), and read
    /// once every worker has ended.
    private var sink: Sink

    init(capacity: Int, sink: Sink) {
        self.capacity = capacity
        self.sink = sink
    }

    /// Queues `batch`, waiting while `capacity` batches wait already.
    func submit(_ batch: CaptureBatch) {
        condition.lock()
        assert(!closed, "a batch handed on after the rendering finished")
        while waiting.count >= capacity { condition.wait() }
        waiting.append((submitted, batch))
        submitted += 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch to render and its number; nil once the last was taken.
    func next() -> (Int, CaptureBatch)? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !closed { condition.wait() }
        guard !waiting.isEmpty else { return nil }
        let next = waiting.removeFirst()
        condition.broadcast()
        return next
    }

    /// Writes batch `number`'s `bytes` once every batch before it was written, then lets the next
    /// batch's worker write.
    func write(_ bytes: UnsafeRawBufferPointer, number: Int) {
        condition.lock()
        while written != number { condition.wait() }
        condition.unlock()
        // Alone: no other worker's turn comes until `written` moves on below.
        sink.write(bytes)
        condition.lock()
        assert(written == number, "batch \(number) was written out of turn (batch \(written)'s turn)")
        written = number + 1
        condition.broadcast()
        condition.unlock()
    }

    func workerFinished() {
        condition.lock()
        finishedWorkers += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Says no batch follows and returns once all are written and the `workers` have ended: the sink.
    func finish(workers: Int) -> Sink {
        condition.lock()
        assert(!closed, "the rendering finished twice")
        closed = true
        condition.broadcast()
        while written < submitted || finishedWorkers < workers { condition.wait() }
        assert(waiting.isEmpty && written == submitted, "the rendering ended with batches not written")
        condition.unlock()
        return sink
    }
}
