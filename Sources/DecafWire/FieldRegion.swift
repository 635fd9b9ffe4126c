/// Which bytes a field's range indexes: the frame as it travelled, or its body after inflating.
public enum FieldRegion: Hashable, Sendable {
    /// The frame's own bytes: the header and an uncompressed body.
    case frame
    /// The body as inflated from its zlib stream.
    case decompressedBody
}
