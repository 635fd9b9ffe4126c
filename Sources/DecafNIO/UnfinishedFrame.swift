/// A frame the peer began and had not finished when this side closed the connection: passed on by
/// `FrameDecoderHandler` as a user inbound event instead of TRUNCATED_FRAME, which says the
/// peer's stream ended. The peer may only be slow (a large body one byte a second).
public struct UnfinishedFrame: Hashable, Sendable {
    /// Bytes of the frame that came, and its length as its header gives it (nil before the header
    /// was all in).
    public var received: Int
    /// The whole frame's bytes as its header gives them; nil if the header was not all in.
    public var expected: Int?

    /// "began a frame of 10485788 bytes and had sent 30 of them".
    public var description: String {
        "began a frame" + (expected.map { " of \($0) bytes" } ?? "") + " and had sent \(received) of \(expected == nil ? "its header's 28" : "them")"
    }
}
