import DecafCapture
import DecafWire
import Foundation

/// Renders a capture listing on several threads into an ordered byte sink. The dissector's thread
/// fills batches in capture order; worker threads render them, each with a renderer of its own,
/// and write each batch to the sink once every earlier batch has been written, so the sink gets
/// byte for byte what one renderer would write. Batches waiting to be rendered are bounded, and
/// so is memory. Once the sink refuses a write (a full disk) the rest is still rendered but never
/// written, so the sink holds a prefix of the listing; `finish` ends the workers whenever it is
/// called, so a listing cut short (an interruption, an unreadable input) ends with every batch
/// handed on written, in order.
public final class ParallelRendering<Sink: OrderedByteSink>: CaptureSink {
    /// A batch is handed on at this many bytes of frames or this many frames.
    public let batchBytes: Int
    public let batchFrames: Int

    /// Filled and handed on by the dissector's thread alone, so it skips the runtime's checks for
    /// overlapping accesses, which would cost more per frame than filling it; `use` checks the
    /// promise in debug builds.
    @exclusivity(unchecked) private var batch: CaptureBatch
    private let use = ExclusiveUse("a ParallelRendering's batch")
    private let coordinator: RenderingCoordinator<Sink>
    private let workers: Int

    /// `workers` threads render, each frame placed as `layout` says; a batch is handed on at
    /// `batchBytes` bytes or `batchFrames` frames.
    public init(style: ListingStyle, hexdump: Bool, registry: FieldRegistry = .brief, layout: ListingLayout = .capture, workers: Int, into sink: Sink,
                batchBytes: Int = 256 << 10, batchFrames: Int = 4096) {
        self.workers = max(1, workers)
        self.batchBytes = max(1, batchBytes)
        self.batchFrames = max(1, batchFrames)
        batch = CaptureBatch(bytes: Self.room(forBatchesOf: self.batchBytes), frames: self.batchFrames)
        coordinator = RenderingCoordinator(capacity: 2 * self.workers, sink: sink)
        for _ in 0..<self.workers {
            let coordinator = coordinator
            Thread {
                var renderer = CaptureRenderer(style: style, hexdump: hexdump, registry: registry, layout: layout)
                while let (number, batch) = coordinator.next() {
                    batch.replay(into: &renderer)
                    coordinator.write(renderer.output.bytes, number: number)
                    renderer.output.removeAll()
                }
                coordinator.workerFinished()
            }.start()
        }
    }

    public func frame(_ frame: CapturedFrameView) {
        use.enter()
        defer { use.leave() }
        batch.add(frame)
        if batch.byteCount >= batchBytes || batch.frameCount >= batchFrames { handOn() }
    }

    public func note(_ event: CaptureEvent) {
        use.enter()
        defer { use.leave() }
        batch.add(event)
    }

    /// Hands on the last batch and returns once everything is written and the workers have ended:
    /// the sink, with the first write it refused, if one was. Call it once.
    public func finish() -> Sink {
        use.enter()
        defer { use.leave() }
        if !batch.isEmpty { handOn() }
        return coordinator.finish(workers: workers)
    }

    /// The bytes a batch reserves: its size and a quarter more (at most 64 KiB), for the frame that
    /// takes it past its size.
    private static func room(forBatchesOf bytes: Int) -> Int {
        bytes + min(64 << 10, bytes / 4)
    }

    private func handOn() {
        coordinator.submit(batch)
        batch = CaptureBatch(bytes: Self.room(forBatchesOf: batchBytes), frames: batchFrames)
    }
}
