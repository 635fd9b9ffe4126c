/// A packet to write into a capture file.
public struct CaptureRecord: Sendable, Hashable {
    public var time: CaptureTime
    /// The link-layer frame as sent.
    public var bytes: [UInt8]
    /// Bytes of it to capture, when fewer than the file's snapshot length (as a capture with a
    /// small `-s` records a long packet).
    public var capturedLength: Int?

    public init(time: CaptureTime, bytes: [UInt8], capturedLength: Int? = nil) {
        self.time = time
        self.bytes = bytes
        self.capturedLength = capturedLength
    }

    /// The bytes a capture with `snapLength` keeps of this packet.
    func captured(snapLength: Int) -> ArraySlice<UInt8> {
        bytes.prefix(min(snapLength, capturedLength ?? snapLength))
    }
}
