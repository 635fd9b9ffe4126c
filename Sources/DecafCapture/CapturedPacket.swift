/// One packet record of a capture file, as it was captured, seen in place in the bytes the reader
/// was given: `bytes` is valid only during the call that received the packet.
public struct CapturedPacket {
    /// 1-based position in the file, as Wireshark numbers packets.
    public var number: Int
    public var time: CaptureTime
    public var linkType: LinkType
    /// The bytes captured, at most the snapshot length.
    public var bytes: UnsafeRawBufferPointer
    /// The packet's length on the wire; more than `bytes.count` when the capture cut it short.
    public var originalLength: Int

    public init(number: Int, time: CaptureTime, linkType: LinkType, bytes: UnsafeRawBufferPointer, originalLength: Int) {
        self.number = number
        self.time = time
        self.linkType = linkType
        self.bytes = bytes
        self.originalLength = originalLength
    }
}
