import DecafWire

/// The values of a frame's header fields, as a walk over them finds them (`walkHeaderFields`):
/// what every output that shows the header reads, field by field. No allocation: a value per byte
/// offset, in registers.
struct HeaderFieldValues: FrameFieldVisitor {
    /// The value of each field that arrived, at the field's offset.
    private var values = SIMD32<UInt32>()

    mutating func visitHeaderField(_ field: HeaderFieldItem) {
        values[field.field.offset] = field.value
    }

    /// The value of `field` (0 if it did not arrive).
    subscript(_ field: FrameHeader.Field) -> UInt32 {
        values[field.offset]
    }
}
