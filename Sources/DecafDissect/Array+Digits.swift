/// Numbers written into output bytes digit by digit: renderers write several per frame.
extension [UInt8] {
    /// Appends `value` in decimal, digit by digit, without making a string.
    mutating func appendDecimal(_ value: some BinaryInteger) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        let end = count + digits
        append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        withUnsafeMutableBufferPointer { buffer in
            var index = end - 1
            repeat {
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                index -= 1
            } while magnitude > 0
        }
    }

    /// Appends the four upper-case hex digits of `value`.
    mutating func appendUppercaseHex(_ value: UInt16) {
        for shift in stride(from: 12, through: 0, by: -4) {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt16(shift)) & 0x0F
            append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
        }
    }
}
