/// A frame seen in place inside a decoder's buffer, as `FrameDecoder.decodeFrames(_:)` hands it
/// out: nothing is copied or retained to make it, and header fields are read only when asked for,
/// which is what lets a receiver keep up with a fast stream. Its buffers are valid only during the
/// call that received the view; take `frame` to keep it.
public struct FrameView {
    /// The frame's bytes: the 28-byte header, then the body.
    public let bytes: UnsafeRawBufferPointer
    /// Where the frame starts in the decoded stream.
    public let streamOffset: Int
    /// The TLV bytes: the inflated body of a compressed frame, empty for an opaque one, else the
    /// body. Valid only during the call that received the view.
    public let payload: UnsafeRawBufferPointer

    @usableFromInline
    init(bytes: UnsafeRawBufferPointer, streamOffset: Int, payload: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.streamOffset = streamOffset
        self.payload = payload
    }

    /// The header, read from the frame's bytes.
    @inlinable @inline(__always)
    /// The frame's header, read from its first 28 bytes.
    public var header: FrameHeader { FrameHeader(unchecked: bytes) }

    /// The body exactly as sent. Valid only during the call that received the view.
    @inlinable
    public var body: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size...]) }

    /// An owned copy of the frame.
    public var frame: Frame {
        let header = header
        let inflated = header.compressType == .zlib && !body.isEmpty && header.encryptType != .aes256 ? Array(payload) : nil
        return Frame(header: header, body: Array(body)[...], inflated: inflated, streamOffset: streamOffset)
    }

    /// Bytes the frame occupies on the wire.
    public var wireLength: Int { bytes.count }
}
