/// Where a capture dissector's findings go, in capture order, as it makes them. Frames come in
/// place, so a sink that only counts or prints them copies nothing.
public protocol CaptureSink {
    /// A frame, good or bad, seen in place: valid only during the call.
    mutating func frame(_ frame: CapturedFrameView)
    /// Anything but a frame (never `.frame`): a connection taken, a stream joined mid-way, a gap,
    /// a resynchronisation, a damaged capture file.
    mutating func note(_ event: CaptureEvent)
}

/// A sink that keeps every event as an owned value, for callers that want them all.
public struct CaptureEventList: CaptureSink {
    public private(set) var events: [CaptureEvent] = []

    public init() {}

    public mutating func frame(_ frame: CapturedFrameView) {
        events.append(.frame(CapturedFrame(frame)))
    }

    public mutating func note(_ event: CaptureEvent) {
        events.append(event)
    }
}
