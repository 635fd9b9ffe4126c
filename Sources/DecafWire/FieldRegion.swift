/// Which bytes a field's range indexes: the frame as it travelled, or its body after inflating.
public enum FieldRegion: Hashable, Sendable {
    case frame
    case decompressedBody
}
