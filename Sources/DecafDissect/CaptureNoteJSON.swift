import DecafCapture

/// The `--json` form of what a capture dissector reports besides frames: a connection taken, a
/// stream joined mid-way, a gap, a resynchronisation, or a damaged capture file.
public struct CaptureNoteJSON: Codable, Hashable, Sendable {
    /// `connection`, `midstream`, `gap`, `resync` or `capture-error`.
    public var record: String
    public var connection: ConnectionJSON?
    public var direction: TCPDirection?
    /// For `gap`: bytes missing; for `resync`: bytes skipped.
    public var count: Int?
    public var skipped: Int?
    /// For `gap`: the stream offset where bytes go missing; for `resync`: where decoding resumed.
    public var streamOffset: Int?
    public var resumedAt: Int?
    /// For `gap`: bytes of an unfinished frame lost with it, and the packet that revealed it.
    public var droppedBytes: Int?
    public var packet: Int?
    /// For `capture-error`.
    public var fileOffset: Int?
    public var message: String?

    /// The JSON for `event`, or nil for a frame (see `FrameRecordJSON`).
    public init?(_ event: CaptureEvent) {
        switch event {
        case .frame, .ended, .connectionClosed:
            return nil
        case let .connectionOpened(connection):
            record = "connection"
            self.connection = ConnectionJSON(connection)
        case let .joinedMidStream(connection, direction):
            record = "midstream"
            self.connection = ConnectionJSON(connection)
            self.direction = direction
        case let .gap(connection, direction, count, streamOffset, droppedBytes, packet):
            record = "gap"
            self.connection = ConnectionJSON(connection)
            self.direction = direction
            self.count = count
            self.streamOffset = streamOffset
            self.droppedBytes = droppedBytes
            self.packet = packet
        case let .resynchronized(connection, direction, skipped, resumedAt, _):
            record = "resync"
            self.connection = ConnectionJSON(connection)
            self.direction = direction
            self.skipped = skipped
            self.resumedAt = resumedAt
        case let .captureError(error):
            record = "capture-error"
            fileOffset = error.fileOffset
            message = error.message
        }
    }
}
