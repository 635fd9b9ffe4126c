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

    @Test func paddingAndInsertion() {
        #expect(written { out in
            out.append("ab")
            out.append(repeating: UInt8(ascii: " "), count: 3)
            out.insert(repeating: UInt8(ascii: "-"), count: 2, at: 1)
        } == "a--b   ")
    }
}
