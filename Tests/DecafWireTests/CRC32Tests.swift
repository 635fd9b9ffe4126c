import DecafTestSupport
import DecafWire
import Testing

@Suite("CRC-32 (CRC-1)")
struct CRC32Tests {
    @Test("the CRC-32/ISO-HDLC check value of \"123456789\" is 0xCBF43926")
    func checkValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test("an empty body's checksum is 0")
    func empty() {
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test("equals zlib's crc32 on random inputs of every small length and some large ones")
    func matchesZlib() {
        var random = SeededGenerator(seed: 0xC4C3_2001)
        let lengths = Array(0...300) + [1023, 1024, 1025, 4096, 65_535, 65_536, 1_000_003]
        for length in lengths {
            let bytes = random.bytes(length)
            #expect(CRC32.checksum(bytes) == ReferenceZlib.crc32(bytes), "length \(length)")
        }
    }

    @Test("slices and arrays of the same bytes give the same checksum")
    func slices() {
        var random = SeededGenerator(seed: 7)
        let bytes = random.bytes(500)
        for start in stride(from: 0, to: 500, by: 37) {
            #expect(CRC32.checksum(bytes[start...]) == ReferenceZlib.crc32(Array(bytes[start...])))
        }
    }
}
