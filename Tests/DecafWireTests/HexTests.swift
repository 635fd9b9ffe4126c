import DecafWire
import Testing

struct HexTests {
    @Test(arguments: [
        ("decafbad", [0xDE, 0xCA, 0xFB, 0xAD]),
        ("DE CA FB AD", [0xDE, 0xCA, 0xFB, 0xAD]),
        ("0xDECAFBAD", [0xDE, 0xCA, 0xFB, 0xAD]),
        ("0x01 0x02\r\n0X0a", [0x01, 0x02, 0x0A]),
        ("de:ca-fb\tad", [0xDE, 0xCA, 0xFB, 0xAD]),
        ("d eca fbad", [0xDE, 0xCA, 0xFB, 0xAD]),
        ("00", [0x00]),
        ("", []),
    ] as [(String, [UInt8])])
    func readsHex(text: String, bytes: [UInt8]) {
        #expect(Hex.bytes(text) == bytes)
    }

    @Test(arguments: ["abc", "0xg0", "x0", "00x0", "1x00", "de ad?", "é0"])
    func refusesWhatIsNotHex(text: String) {
        #expect(Hex.bytes(text) == nil)
    }

    @Test func roundTripsEveryByte() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Hex.bytes(Hex.string(bytes)) == bytes)
        #expect(Hex.bytes(Hex.spaced(bytes)) == bytes)
    }

    /// `write` makes four bytes' digits at once: every byte value in every place of a word, every
    /// start and every length of tail, against the plain `string`.
    @Test func writesInPlaceAsStringDoes() {
        let bytes = (0...255).map(UInt8.init) + (0...255).map { UInt8(255 - $0) }
        for start in 0..<8 {
            for length in Array(0...17) + [255, bytes.count - start] {
                let slice = Array(bytes[start..<(start + length)])
                let written = [UInt8](unsafeUninitializedCapacity: 2 * length) { out, count in
                    if let base = out.baseAddress { slice.withUnsafeBytes { Hex.write($0, to: base) } }
                    count = 2 * length
                }
                #expect(String(decoding: written, as: UTF8.self) == Hex.string(slice))
            }
        }
    }
}
