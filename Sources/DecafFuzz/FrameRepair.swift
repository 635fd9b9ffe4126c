import DecafWire

/// Makes a frame's body_length and checksum agree with the body it carries, so a mutated input
/// reaches the parser behind them instead of being refused at the checksum (what network fuzzers
/// that know no protocol lose most of their inputs to).
public enum FrameRepair {
    /// `bytes` with body_length set to the bytes after the header and the checksum to their
    /// CRC-32. Bytes too short to hold a header are returned as they are.
    public static func repaired(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= FrameHeader.size else { return bytes }
        var bytes = bytes
        let body = bytes[FrameHeader.size...]
        let checksum = CRC32.checksum(body)
        FrameHeader.Field.bodyLength.set(UInt32(body.count), in: &bytes)
        FrameHeader.Field.checksum.set(checksum, in: &bytes)
        return bytes
    }
}
