import DecafCapture

/// A frame found in a capture: the dissected frame and where in the capture it travelled.
public struct CapturedFrame: Sendable {
    public var record: FrameRecord
    public var connection: TCPConnection
    public var direction: TCPDirection
    /// Capture packet numbers that carried the frame's bytes, in ascending order.
    public var packets: [Int]
    /// The packet whose arrival completed the frame (with out-of-order segments, not always the
    /// last of `packets`); Wireshark shows the frame there.
    public var completedBy: Int
    /// Capture time of the packet that completed the frame.
    public var time: CaptureTime

    init(record: FrameRecord, connection: TCPConnection, direction: TCPDirection, packets: [Int], completedBy: Int, time: CaptureTime) {
        self.record = record
        self.connection = connection
        self.direction = direction
        self.packets = packets
        self.completedBy = completedBy
        self.time = time
    }

    /// An owned copy of the frame `view` shows.
    public init(_ view: CapturedFrameView) {
        record = FrameRecord(view.parts)
        connection = view.connection
        direction = view.direction
        packets = Array(view.packets)
        completedBy = view.completedBy
        time = view.time
    }

    /// The frame seen in place, as sinks and renderers read it.
    public func withView<R>(_ body: (CapturedFrameView) throws -> R) rethrows -> R {
        try record.withParts { parts in
            try packets.withUnsafeBufferPointer { packets in
                try body(CapturedFrameView(parts: parts, connection: connection, direction: direction, packets: packets,
                                           completedBy: completedBy, time: time))
            }
        }
    }
}
