import DecafJSON
import DecafWire

/// Writes the `tlv` array of a frame's JSON line (`TLVFieldJSONWriter`) and, in the same walk,
/// collects the warnings of the values that do not fit their tags.
struct TLVFieldsJSON: FrameFieldVisitor {
    var fields: TLVFieldJSONWriter
    var misfits: MisfitWarnings

    mutating func enterTLVField(_ field: TLVFieldItem) {
        misfits.enterTLVField(field)
        fields.enterTLVField(field)
    }

    mutating func exitTLVField(_ field: TLVFieldItem) {
        fields.exitTLVField(field)
    }
}
