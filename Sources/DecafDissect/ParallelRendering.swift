import DecafDissect
import Foundation

/// Renders a capture listing on every core. The dissector's thread fills batches in capture order;
/// worker threads render them, each with a renderer of its own, and write each batch to standard
/// output once every earlier batch has been written, so the output is byte for byte what one
/// renderer would write. Batches waiting to be rendered are bounded, and so is memory.
final class ParallelRendering: CaptureSink {
    /// A batch is handed on at this many bytes of frames or this many frames.
    static let batchBytes = 256 << 10
    static let batchFrames = 4096

    /// A batch with room for what it holds before it is handed on.
    private static var emptyBatch: CaptureBatch { CaptureBatch(bytes: batchBytes + (64 << 10), frames: batchFrames) }

    /// Filled and handed on by the dissector's thread alone, so it skips the runtime's checks for
    /// overlapping accesses, which would cost more per frame than filling it.
    @exclusivity(unchecked) private var batch = ParallelRendering.emptyBatch
    private let coordinator: Coordinator
    private let workers: Int

    /// `width`: a terminal's, to which each line is fitted.
    init(style: DissectionReport.Style, hexdump: Bool, workers: Int, width: Int? = nil) {
        self.workers = max(1, workers)
        coordinator = Coordinator(capacity: 2 * self.workers, width: width)
        for _ in 0..<self.workers {
            let coordinator = coordinator
            Thread {
                var renderer = CaptureRenderer(style: style, hexdump: hexdump)
                while let (number, batch) = coordinator.next() {
                    batch.replay(into: &renderer)
                    coordinator.waitForTurn(number)
                    coordinator.write(renderer.output.bytes)
                    renderer.output.removeAll()
                    coordinator.wrote(number)
                }
                coordinator.workerFinished()
            }.start()
        }
    }

    func frame(_ frame: CapturedFrameView) {
        batch.add(frame)
        if batch.byteCount >= Self.batchBytes || batch.frameCount >= Self.batchFrames { handOn() }
    }

    func note(_ event: CaptureEvent) {
        batch.add(event)
    }

    /// Hands on the last batch and returns once everything is written and the workers have ended,
    /// with the error number of the first write standard output refused, if one was.
    func finish() -> Int32? {
        if !batch.isEmpty { handOn() }
        return coordinator.finish(workers: workers)
    }

    private func handOn() {
        coordinator.submit(batch)
        batch = Self.emptyBatch
    }
}

/// What the dissector's thread and the workers share, under one lock: the batches waiting, how
/// many were handed on and written, and whether the last has come.
private final class Coordinator: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    // Guarded by `condition`.
    private var waiting: [(number: Int, batch: CaptureBatch)] = []
    private var submitted = 0
    private var written = 0
    private var closed = false
    private var finishedWorkers = 0
    /// Used by the worker whose turn it is to write, one at a time.
    private var output: StandardOutputFile

    init(capacity: Int, width: Int?) {
        self.capacity = capacity
        output = StandardOutputFile(width: width)
    }

    /// Writes `bytes` to standard output; called in turn.
    func write(_ bytes: UnsafeRawBufferPointer) {
        output.write(bytes)
    }

    /// Queues `batch`, waiting while `capacity` batches wait already.
    func submit(_ batch: CaptureBatch) {
        condition.lock()
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

    /// Returns once every batch before `number` was written.
    func waitForTurn(_ number: Int) {
        condition.lock()
        while written != number { condition.wait() }
        condition.unlock()
    }

    func wrote(_ number: Int) {
        condition.lock()
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

    /// Says no batch follows and returns once all are written and the `workers` have ended, with
    /// the error number of the first write refused.
    func finish(workers: Int) -> Int32? {
        condition.lock()
        closed = true
        condition.broadcast()
        while written < submitted || finishedWorkers < workers { condition.wait() }
        condition.unlock()
        return output.failure
    }
}
