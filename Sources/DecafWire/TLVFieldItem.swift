/// A TLV field as the frame model yields it: the field in place, what the registry calls it, where
/// its bytes are, and how deep it is nested.
public struct TLVFieldItem {
    /// The tag, the value in place, and the body offset of the tag.
    public let element: TLVSequenceView.Element
    /// The names of the registry the walk was given, where the field's name and layout are read.
    @usableFromInline let names: FieldRegistry.Table
    /// The tag's place in `names` plus one, or 0 for a tag the registry does not name.
    @usableFromInline let slot: Int
    /// The bytes the field lies in: the frame, or the inflated body.
    public let region: FieldRegion
    /// 0 for the body's own fields, 1 inside a container, and so on.
    public let depth: Int
    /// Where body offset 0 lies in the region's bytes: after the header in the frame, at 0 in an
    /// inflated body.
    public let base: Int

    @inlinable
    init(element: TLVSequenceView.Element, registry: FieldRegistry, region: FieldRegion, depth: Int, base: Int) {
        self.element = element
        names = registry.table
        slot = registry.slot(of: element.tag)
        self.region = region
        self.depth = depth
        self.base = base
    }

    /// The field's tag.
    public var tag: TLVTag { element.tag }
    /// The value's bytes, in place.
    public var value: UnsafeRawBufferPointer { element.value }
    /// Whether the field is a container, whose fields the walk enters next.
    public var isContainer: Bool { element.isContainer }
    /// The registry's entry for the tag, nil for a tag it does not name.
    public var definition: TLVTagDefinition? { slot == 0 ? nil : names.tags[slot - 1] }
    /// The registry's name for the tag (`TEXT`), nil for a tag it does not name.
    public var name: String? { definition?.name }
    /// The UTF-8 bytes of the name, nil for a tag the registry does not name: what an output that
    /// writes bytes copies, without making a `String`. Valid as long as the item is.
    @inlinable
    public var nameBytes: UnsafeRawBufferPointer? { slot == 0 ? nil : names.name(inSlot: slot) }
    /// The name, or the tag's four hex digits.
    public var label: String { name ?? Hex.format(element.tag.rawValue, width: 4) }
    /// How the value is read: the registry's layout for the tag, raw bytes for one it does not name.
    @inlinable
    public var layout: TLVValueLayout { slot == 0 ? .bytes : names.tags[slot - 1].layout }
    /// `0x1001 TEXT`, or just the hex for a tag without a name, as `TLVTag` describes itself.
    public var tagDescription: String { FieldRegistry.describe(element.tag, name: name) }

    /// The tag and length bytes, in the region.
    public var headerRange: Range<Int> { (base + element.offset)..<(base + element.offset + TLVEncoder.fieldHeaderSize) }
    /// The value bytes, in the region.
    public var valueRange: Range<Int> { headerRange.upperBound..<(headerRange.upperBound + element.value.count) }

    /// Why the value does not fit its tag's layout (TLV-4), nil when it fits.
    @inlinable
    public var misfit: String? {
        switch layout {
        case .bytes, .container: nil
        default: TLVValue.misfit(layout: layout, value: element.value)
        }
    }

    /// The value read with its tag's layout.
    public var interpreted: TLVValue { TLVValue(tag: element.tag, value: element.value, layout: layout) }
}
