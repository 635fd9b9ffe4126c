import DecafWire

/// A run of bytes that belongs to one field, with the label a hexdump prints beside it.
public struct FieldSpan: Hashable, Sendable {
    /// Which bytes the range indexes: the frame as sent, or the body after decompression.
    public var region: FieldRegion
    public var range: Range<Int>
    public var label: String
    /// Nesting depth, for indenting fields inside containers.
    public var depth: Int

    public init(_ region: FieldRegion, _ range: Range<Int>, _ label: String, depth: Int = 0) {
        self.region = region
        self.range = range
        self.label = label
        self.depth = depth
    }
}
