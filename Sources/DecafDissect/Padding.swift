/// Runs of a repeated ASCII character, for columns and indents, written straight into a new
/// string: `String(repeating:count:)` and decoding a repeated sequence take generic paths that
/// cost the renderers most of their time.
enum Padding {
    static func spaces(_ count: Int) -> String { repeating(" ", count) }

    static func repeating(_ character: Unicode.Scalar, _ count: Int) -> String {
        let count = max(0, count)
        return String(unsafeUninitializedCapacity: count) { buffer in
            buffer.initialize(repeating: UInt8(ascii: character))
            return count
        }
    }
}
