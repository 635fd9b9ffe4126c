import DecafJSON
import DecafWire
import Testing

/// The output buffer's writers against the standard library's own text for the same values.
struct OutputBufferTests {
    private func written(_ write: (OutputBuffer) -> Void) -> String {
        let out = OutputBuffer(capacity: 8)
        write(out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test func decimalsAreTheStandardLibrarysAtEveryDigitCount() {
        var values: [Int64] = [0, 1, -1, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        for value in values {
            #expect(written { $0.appendDecimal(value) } == String(value))
        }
        for value: UInt64 in [UInt64.max, UInt64.max - 1, 10_000_000_000_000_000_000, 9_999_999_999_999_999_999] {
            #expect(written { $0.appendDecimal(value) } == String(value))
        }
        for value: UInt8 in [0, 9, 10, 99, 100, 255] {
            #expect(written { $0.appendDecimal(value) } == String(value))
        }
    }

    @Test func textAndNamesAreWrittenAsTheyRead() {
        let long = String(repeating: "é→", count: 40)
        #expect(written { $0.append("C→S") } == "C→S")
        #expect(written { $0.append(long) } == long)
        #expect(written { $0.append(String(long.prefix(3))) } == String(long.prefix(3)))
        #expect(written { $0.appendDescription(of: MessageType.readReceipt) } == "READ_RECEIPT")
        #expect(written { $0.appendDescription(of: MessageType(rawValue: 77)) } == MessageType(rawValue: 77).description)
        #expect(written { $0.appendUppercaseHex(0xBEEF) } == "BEEF")
        #expect(written { $0.appendUppercaseHex(0x00A1) } == "00A1")
    }

    /// Every length a piece is copied by (bytes, two overlapping 4-byte words, two overlapping
    /// 8-byte words, a copy call), each at every offset of a buffer that has to grow.
    @Test func piecesOfEveryLengthAreCopiedWhole() {
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for offset in 0..<9 {
            for length in 0...source.count {
                let out = OutputBuffer(capacity: 8)
                out.append(repeating: UInt8(ascii: "-"), count: offset)
                source.withUnsafeBytes { out.append(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
                out.append(UInt8(ascii: "."))
                #expect(Array(out.bytes) == Array(repeating: UInt8(ascii: "-"), count: offset) + source[..<length] + [UInt8(ascii: ".")])
            }
        }
    }

    @Test func upperCaseHexIsTheStandardLibrarysForEveryValue() {
        for value in UInt16.min...UInt16.max {
            let hex = String(value, radix: 16, uppercase: true)
            #expect(written { $0.appendUppercaseHex(value) } == String(repeating: "0", count: 4 - hex.count) + hex)
        }
        for value: UInt32 in [0, 9, 10, 0xF, 0x10, 0xDECA_FBAD, 0x0123_4567, 0x89AB_CDEF, 0xFFFF_FFFF, 0xA0A0_9F9F] {
            let digits = Hex.uppercaseDigits(value)
            #expect(withUnsafeBytes(of: digits) { String(decoding: $0, as: UTF8.self) } == Hex.format(value, width: 8).dropFirst(2))
        }
    }

    @Test func paddingAndInsertion() {
        #expect(written { out in
            out.append("ab")
            out.append(repeating: UInt8(ascii: " "), count: 3)
            out.insert(repeating: UInt8(ascii: "-"), count: 2, at: 1)
        } == "a--b   ")
    }
}
