/// Runs of a repeated ASCII character, for columns and indents. Built from bytes: the standard
/// library's `String(repeating:count:)` takes a generic path that cost renderers most of their time.
enum Padding {
    static func spaces(_ count: Int) -> String { repeating(" ", count) }

    static func repeating(_ character: Unicode.Scalar, _ count: Int) -> String {
        String(decoding: repeatElement(UInt8(ascii: character), count: max(0, count)), as: UTF8.self)
    }
}
