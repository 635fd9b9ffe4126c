/// What the connection tracker reports, in capture order.
public enum TCPStreamEvent {
    /// The first payload byte of a connection arrived.
    case opened(TCPConnection)
    /// A direction's first bytes follow no captured SYN: the stream is joined mid-way.
    case joinedMidStream(TCPConnection, TCPDirection)
    /// The next bytes of one direction, valid only during the call that received them: carried by
    /// packet `packet`, available since packet `completedBy` (see `TCPStreamReassembler.Output`).
    case data(TCPConnection, TCPDirection, UnsafeRawBufferPointer, packet: Int, completedBy: Int, time: CaptureTime)
    /// Bytes of one direction the capture does not hold.
    case gap(TCPConnection, TCPDirection, count: Int, packet: Int, time: CaptureTime)
    /// The sender of `direction` ended it, in packet `packet`: its FIN (passed on once the bytes
    /// before it were, unless some were still held behind a loss), or its reset. The first of each
    /// direction only; a connection's `closed` follows a reset at once.
    case ended(TCPConnection, TCPDirection, Ending, packet: Int, time: CaptureTime)
    /// The connection ended (RST, FIN both ways, a new SYN on the same ports, or the end of the capture).
    case closed(TCPConnection)

    /// How a direction's sender ended it.
    public enum Ending: String, Sendable, Hashable {
        /// A FIN: the sender closed (or half-closed) the connection.
        case fin
        /// An RST: the sender dropped the connection.
        case reset
    }
}
