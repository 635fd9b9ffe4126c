import DecafWire

/// A TLV sequence with every field's length written in the other byte order, containers'
/// values included: what a codec that reads or writes TLV lengths little-endian means by the same
/// bytes (`CodecMistake.tlvLengthLittleEndian`). Where a field runs past its sequence, the rest is
/// left as it is, so the reference reports the same field as the mistaken codec.
public enum TLVLengthOrder {
    /// Swaps each length of the TLV sequence at `range` of `bytes`, in place (a frame's body
    /// swapped where it lies costs no copy of it), the lengths read little-endian when
    /// `readingLittleEndian` (a misreading decoder's input) or big-endian (a miswriting encoder's
    /// output). Containers deeper than any depth limit are left as they are.
    public static func swap(_ bytes: inout [UInt8], in range: Range<Int>, readingLittleEndian: Bool) {
        swap(&bytes, in: range, readingLittleEndian: readingLittleEndian, depth: 0)
    }

    private static func swap(_ bytes: inout [UInt8], in range: Range<Int>, readingLittleEndian: Bool, depth: Int) {
        guard depth <= TLVOptions.maximumDepthLimit else { return }
        var position = range.lowerBound
        while range.upperBound - position >= TLVEncoder.fieldHeaderSize {
            let lengthBytes = position + 2..<position + TLVEncoder.fieldHeaderSize
            let length = bytes[lengthBytes].reduce(0) { $0 << 8 | Int($1) }
            let readLength = readingLittleEndian ? bytes[lengthBytes].reversed().reduce(0) { $0 << 8 | Int($1) } : length
            bytes[lengthBytes].reverse()
            let valueStart = lengthBytes.upperBound
            guard readLength <= range.upperBound - valueStart else { return }
            if bytes[position] == 0xFF, bytes[position + 1] == 0xFF {
                swap(&bytes, in: valueStart..<valueStart + readLength, readingLittleEndian: readingLittleEndian, depth: depth + 1)
            }
            position = valueStart + readLength
        }
    }
}
