import DecafCapture
import DecafDissect
import DecafVectors
import Testing

/// Frames rendered on worker threads go through a batch: what a renderer writes from a replayed
/// batch must be exactly what it writes from the dissector directly.
@Suite("capture batches")
struct CaptureBatchTests {
    /// A sink that renders and batches at once, so both see the same frames.
    struct Both: CaptureSink {
        var direct: CaptureRenderer
        var batch = CaptureBatch()

        mutating func frame(_ frame: CapturedFrameView) {
            direct.frame(frame)
            batch.add(frame)
        }

        mutating func note(_ event: CaptureEvent) {
            direct.note(event)
            batch.add(event)
        }
    }

    @Test("a replayed batch renders byte for byte as the dissector's frames do, in every style",
          arguments: [ListingStyle.summary, .json, .tree])
    func replayMatches(_ style: ListingStyle) {
        for capture in SampleCapture.all {
            var dissector = CaptureDissector()
            var both = Both(direct: CaptureRenderer(style: style, hexdump: style == .tree))
            capture.bytes.withUnsafeBytes { dissector.append($0, to: &both) }
            dissector.finish(to: &both)
            var replayed = CaptureRenderer(style: style, hexdump: style == .tree)
            both.batch.replay(into: &replayed)
            #expect(both.batch.frameCount > 0, "\(capture.name)")
            #expect(Array(replayed.output.bytes) == Array(both.direct.output.bytes), "\(capture.name)")
        }
    }
}
