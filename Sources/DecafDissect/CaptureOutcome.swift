import DecafCapture

/// What a dissection comes to, counted on the way to `inner`, which gets every event: how many
/// frames there were, whether any was bad or bytes were missing, and how the file was damaged.
public struct CaptureOutcome<Inner: CaptureSink>: CaptureSink {
    public var inner: Inner
    public private(set) var frames = 0
    /// Whether a frame was bad, bytes were missing or the file was damaged.
    public private(set) var failed = false
    public private(set) var captureError: CaptureError?

    public init(_ inner: Inner) {
        self.inner = inner
    }

    public mutating func frame(_ frame: CapturedFrameView) {
        frames += 1
        if !frame.parts.isValid { failed = true }
        inner.frame(frame)
    }

    public mutating func note(_ event: CaptureEvent) {
        switch event {
        case .gap:
            failed = true
        case let .captureError(error):
            failed = true
            captureError = error
        default:
            break
        }
        inner.note(event)
    }
}
