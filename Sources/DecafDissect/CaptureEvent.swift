import DecafCapture

/// What a capture dissector reports, in capture order.
public enum CaptureEvent: Sendable {
    /// A frame, good or bad.
    case frame(CapturedFrame)
    /// A connection was taken as the protocol's (by port, or because its first bytes are the magic).
    case connectionOpened(TCPConnection)
    /// The capture did not hold a direction's SYN: decoding starts at the first magic found.
    case joinedMidStream(TCPConnection, TCPDirection)
    /// `count` bytes of one direction are missing from the capture at `streamOffset` (packets lost
    /// by the capture, or cut off by its snapshot length), noticed at packet `packet`;
    /// `droppedBytes` bytes of an unfinished frame before the gap are lost with it.
    case gap(TCPConnection, TCPDirection, count: Int, streamOffset: Int, droppedBytes: Int, packet: Int)
    /// After a bad frame or a gap, bytes of one direction were passed over to reach the next magic
    /// at `resumedAt` (nil: to the end). A stream at hand as a whole (hex, a file of frames) gives
    /// the skipped bytes too, and the offset of the first, so `decaf build --from` can put them
    /// back; a capture does not.
    case resynchronized(TCPConnection, TCPDirection, skipped: Int, resumedAt: Int?, skippedBytes: (from: Int, bytes: [UInt8])? = nil)
    /// The sender of a direction closed it with a FIN or dropped the connection with an RST, in
    /// packet `packet`. Not shown; the monitor judges who closed and when (EX-5).
    case ended(TCPConnection, TCPDirection, TCPStreamEvent.Ending, packet: Int, time: CaptureTime)
    /// A connection taken as the protocol's ended and was flushed: nothing more comes of it. Not
    /// shown; it lets listings and statistics forget what they kept for the connection.
    case connectionClosed(TCPConnection)
    /// The capture file is damaged or cut short here; everything before it was reported.
    case captureError(CaptureError)

    /// The connection the event is about; nil for a damaged capture file.
    public var connection: TCPConnection? {
        switch self {
        case let .frame(frame): frame.connection
        case let .connectionOpened(connection), let .joinedMidStream(connection, _), let .gap(connection, _, _, _, _, _),
             let .resynchronized(connection, _, _, _, _), let .ended(connection, _, _, _, _), let .connectionClosed(connection):
            connection
        case .captureError: nil
        }
    }
}
