import DecafWire

/// Deliberate damage to encoded frames, for invalid vectors.
extension Array where Element == UInt8 {
    /// The bytes with `replacement` written over them from `offset`.
    func patching(_ offset: Int, _ replacement: [UInt8]) -> [UInt8] {
        var copy = self
        copy.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        return copy
    }

    /// The bytes with a big-endian u32 written at `offset`.
    func settingUInt32(at offset: Int, _ value: UInt32) -> [UInt8] {
        patching(offset, [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                          UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
    }

    /// The bytes with a different checksum field.
    func settingChecksum(_ value: UInt32) -> [UInt8] {
        settingUInt32(at: FrameHeader.Field.checksum.offset, value)
    }

    /// The frame with body_length and checksum made to fit its (edited) body again.
    func refittingBody() -> [UInt8] {
        let body = self[FrameHeader.size...]
        return settingUInt32(at: FrameHeader.Field.bodyLength.offset, UInt32(body.count))
            .settingChecksum(CRC32.checksum(body))
    }

    /// The frame with `extra` appended to its body, length and checksum refitted.
    func appendingToBody(_ extra: [UInt8]) -> [UInt8] {
        (self + extra).refittingBody()
    }

    /// The first `count` bytes.
    func keeping(_ count: Int) -> [UInt8] { Array(prefix(count)) }

    /// The bytes with the bit `bit` (0 = least significant) of byte `offset` flipped.
    func flippingBit(_ bit: Int, ofByte offset: Int) -> [UInt8] {
        var copy = self
        copy[offset] ^= 1 << UInt8(bit)
        return copy
    }
}
