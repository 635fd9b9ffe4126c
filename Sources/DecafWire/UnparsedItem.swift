/// Bytes at the end of a TLV sequence that no field explains: left over, or after the error that
/// stopped the parse.
public struct UnparsedItem {
    /// The bytes they lie in: the frame, or the inflated body.
    public let region: FieldRegion
    /// Where they lie in the region.
    public let range: Range<Int>
    /// The depth of the sequence they end.
    public let depth: Int
    /// True when the frame has an error, so the bytes lie after it.
    public let afterError: Bool

    @inlinable
    init(region: FieldRegion, range: Range<Int>, depth: Int, afterError: Bool) {
        self.region = region
        self.range = range
        self.depth = depth
        self.afterError = afterError
    }
}
