import DecafWire

/// Collects a warning for every shown field whose value does not fit its tag's layout (TLV-4): a
/// receiver keeps such a field, so it is a warning, not an error.
struct MisfitWarnings: FrameFieldVisitor {
    var warnings: [DissectionWarning]

    mutating func enterTLVField(_ field: TLVFieldItem) {
        guard let why = field.misfit else { return }
        warnings.append(DissectionWarning(.tlv4, "\(field.tagDescription) at body offset \(field.element.offset): \(why)"))
    }
}
