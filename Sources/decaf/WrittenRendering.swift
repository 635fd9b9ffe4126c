import DecafDissect

/// A capture renderer whose text goes to standard output every 64 KiB: a chunk's JSON is many
/// times its size, so it is never held whole.
struct WrittenRendering: CaptureSink {
    static let flushSize = 1 << 16

    private var renderer: CaptureRenderer

    init(_ renderer: CaptureRenderer) {
        self.renderer = renderer
    }

    mutating func frame(_ frame: CapturedFrameView) {
        renderer.frame(frame)
        if renderer.bytes.count >= Self.flushSize { flush() }
    }

    mutating func note(_ event: CaptureEvent) {
        renderer.note(event)
        if renderer.bytes.count >= Self.flushSize { flush() }
    }

    /// Writes what was rendered and not yet written.
    mutating func flush() {
        renderer.bytes.withUnsafeBytes { FileHandleOutput.standardOutput.write(raw: $0) }
        renderer.bytes.removeAll(keepingCapacity: true)
    }
}
