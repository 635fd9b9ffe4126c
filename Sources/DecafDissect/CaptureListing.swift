import DecafCapture

/// The part of a capture a listing shows, passed on to `output`: the frames and notes that match
/// the filter, each connection announced just before the first thing shown of it, so a filter
/// that leaves a connection out leaves out its header too.
public struct CaptureListing<Output: CaptureSink>: CaptureSink {
    public var output: Output
    public let filter: FrameFilter
    /// Frames shown.
    public private(set) var shown = 0
    /// Connections taken and not yet announced; forgotten when they close.
    private var unannounced: [Int: TCPConnection] = [:]

    public init(output: Output, filter: FrameFilter = FrameFilter()) {
        self.output = output
        self.filter = filter
    }

    public mutating func frame(_ frame: CapturedFrameView) {
        guard filter.matches(frame) else { return }
        shown += 1
        announce(frame.connection)
        output.frame(frame)
    }

    public mutating func note(_ event: CaptureEvent) {
        guard filter.matches(event) else { return }
        // A FIN or a reset shows nothing, so it announces no connection either.
        if case .ended = event { return }
        if case let .connectionOpened(connection) = event {
            unannounced[connection.index] = connection
            return
        }
        if case let .connectionClosed(connection) = event {
            // A connection that ended without showing anything is never announced.
            unannounced[connection.index] = nil
        }
        if let connection = event.connection { announce(connection) }
        output.note(event)
    }

    private mutating func announce(_ connection: TCPConnection) {
        guard !unannounced.isEmpty, let opened = unannounced.removeValue(forKey: connection.index) else { return }
        output.note(.connectionOpened(opened))
    }
}
