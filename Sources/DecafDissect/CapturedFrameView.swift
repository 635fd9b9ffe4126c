import DecafCapture

/// A frame found in a capture, seen in place: the dissected frame and where in the capture it
/// travelled. Valid only during the call that received it; `CapturedFrame` is the owned form.
public struct CapturedFrameView {
    public var parts: FrameParts
    public var connection: TCPConnection
    public var direction: TCPDirection
    /// Capture packet numbers that carried the frame's bytes, in ascending order.
    public var packets: UnsafeBufferPointer<Int>
    /// The packet whose arrival completed the frame; Wireshark shows the frame there.
    public var completedBy: Int
    /// Capture time of the packet that completed the frame.
    public var time: CaptureTime

    public init(parts: FrameParts, connection: TCPConnection, direction: TCPDirection, packets: UnsafeBufferPointer<Int>,
                completedBy: Int, time: CaptureTime) {
        self.parts = parts
        self.connection = connection
        self.direction = direction
        self.packets = packets
        self.completedBy = completedBy
        self.time = time
    }
}
