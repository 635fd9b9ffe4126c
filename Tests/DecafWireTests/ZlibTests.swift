import DecafTestSupport
import DecafWire
import Testing

@Suite("zlib bodies (ZLIB-1, ZLIB-2)")
struct ZlibTests {
    /// Chat-like text: compressible but not trivially so.
    static func chat(_ random: inout SeededGenerator, length: Int) -> [UInt8] {
        let words = ["hi", "see", "you", "at", "the", "cafe", "tonight", "?", "ok", "👍", "decaf", "please", "\n"]
        var text: [UInt8] = []
        while text.count < length {
            text += Array(words[Int.random(in: 0..<words.count, using: &random)].utf8) + [0x20]
        }
        return Array(text.prefix(length))
    }

    @Test("every body Decaf compresses inflates with zlib to the same bytes")
    func ourStreamsInflateWithZlib() {
        var random = SeededGenerator(seed: 0x2101)
        for level in [0, 1, 6, 9, 12] {
            let compressor = ZlibCompressor(level: level)
            for length in [0, 1, 2, 17, 255, 1024, 4096, 70_000] {
                let input = Bool.random(using: &random) ? Self.chat(&random, length: length) : random.bytes(length)
                let stream = compressor.compress(input)
                #expect(ReferenceZlib.inflate(stream) == input, "level \(level), length \(length)")
            }
        }
    }

    @Test("every stream zlib's compress2 makes inflates with Decaf to the same bytes")
    func zlibStreamsInflateWithOurs() throws {
        var random = SeededGenerator(seed: 0x2102)
        let inflater = ZlibInflater()
        for level: Int32 in [0, 1, 6, 9] {
            for length in [0, 1, 3, 100, 1024, 65_536, 200_000] {
                let input = Bool.random(using: &random) ? Self.chat(&random, length: length) : random.bytes(length)
                let stream = ReferenceZlib.compress(input, level: level)
                #expect(try inflater.inflate(stream, limit: DecodeOptions.defaultBodyLimit) == input, "level \(level), length \(length)")
            }
        }
    }

    @Test("the inflated size may reach the limit but not pass it")
    func limitBoundary() throws {
        let inflater = ZlibInflater()
        let input = [UInt8](repeating: 0x41, count: 5000)
        let stream = ZlibCompressor().compress(input)
        #expect(try inflater.inflate(stream, limit: 5000) == input)
        #expect(throws: WireError(.inflatedBodyTooLarge(limit: 4999), offset: 28)) {
            try inflater.inflate(stream, limit: 4999)
        }
    }

    @Test("bytes after the end of the stream are refused")
    func trailingBytes() {
        let stream = ZlibCompressor().compress(Array("hello".utf8)) + [0, 0, 0]
        #expect(throws: WireError(.bytesAfterZlibStream(count: 3), offset: 28)) {
            try ZlibInflater().inflate(stream, limit: 100)
        }
    }

    @Test("a bad Adler-32 is refused")
    func badAdler() {
        var stream = ZlibCompressor().compress(Array("hello, hello".utf8))
        stream[stream.count - 1] ^= 0x01
        #expect(throws: WireError(.malformedZlibStream, offset: 28)) {
            try ZlibInflater().inflate(stream, limit: 100)
        }
    }

    @Test("a 1 GiB zlib bomb is refused at the 10 MiB limit without ever holding more than the limit")
    func gigabyteBomb() {
        let bomb = ReferenceZlib.compressedZeros(count: 1 << 30)
        #expect(bomb.count < DecodeOptions.defaultBodyLimit, "the bomb must fit in a frame body")
        let inflater = ZlibInflater()
        #expect(throws: WireError(.inflatedBodyTooLarge(limit: DecodeOptions.defaultBodyLimit), offset: 28)) {
            try inflater.inflate(bomb, limit: DecodeOptions.defaultBodyLimit)
        }
        #expect(inflater.peakOutputCapacity == DecodeOptions.defaultBodyLimit)
    }

    @Test("the output buffer grows from small, so a small body never allocates the whole limit")
    func smallBodySmallBuffer() throws {
        let inflater = ZlibInflater()
        let body = ZlibCompressor().compress(Array("hello".utf8))
        _ = try inflater.inflate(body, limit: DecodeOptions.defaultBodyLimit)
        #expect(inflater.peakOutputCapacity <= 4096)
    }
}
