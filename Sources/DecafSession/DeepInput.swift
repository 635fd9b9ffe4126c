import DecafWire

/// The rare, deep inputs the planted faults of the reference peer and Decaf's codec testee
/// misbehave on, which no conformance case sends: what `decaf fuzz` must find on its own.
public enum DeepInput {
    /// Whether a TEXT field with an empty value sits more than `depth` containers down.
    public static func holdsEmptyText(_ fields: TLVSequence, deeperThan depth: Int) -> Bool {
        fields.contains { element in
            if element.isContainer { return holdsEmptyText(element.children, deeperThan: depth - 1) }
            return depth < 0 && element.tag == .text && element.value.isEmpty
        }
    }

    /// Whether a TEXT field, at any depth, holds bytes that are not UTF-8 (which the brief leaves
    /// to the application: not a protocol error, TLV-4).
    public static func holdsInvalidText(_ fields: TLVSequence) -> Bool {
        fields.contains { element in
            if element.isContainer { return holdsInvalidText(element.children) }
            return element.tag == .text && String(validating: element.value, as: UTF8.self) == nil
        }
    }

    /// The body offset of an empty container that sits exactly `depth` containers down, if any.
    public static func emptyContainer(in fields: TLVSequence, atDepth depth: Int) -> Int? {
        for element in fields where element.isContainer {
            if depth == 0 && element.value.isEmpty { return element.offset }
            if depth > 0, let offset = emptyContainer(in: element.children, atDepth: depth - 1) { return offset }
        }
        return nil
    }
}
