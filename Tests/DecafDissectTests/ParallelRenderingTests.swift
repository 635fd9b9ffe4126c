import DecafCapture
import DecafDissect
import DecafVectors
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The parallel listing engine against an in-memory sink: the order of its output, a sink that
/// fills up, and a listing cut short. Imports nothing but the libraries it tests, so the
/// sanitizer package (tools/sanitize) runs this same file under ThreadSanitizer and AddressSanitizer.
@Suite("parallel rendering")
struct ParallelRenderingTests {
    /// What one renderer writes for `capture`, fed `chunks` chunks of it (all, by default).
    static func serial(_ capture: SampleCapture, style: ListingStyle, hexdump: Bool, chunks: Int? = nil) -> [UInt8] {
        var dissector = CaptureDissector()
        var listing = CaptureListing(output: CaptureRenderer(style: style, hexdump: hexdump))
        feed(capture, chunks: chunks, to: &dissector, into: &listing)
        return Array(listing.output.output.bytes)
    }

    /// Feeds `capture` in chunks of 1 KiB, each its own allocation freed right after use (a view
    /// kept past its call would be a use after free under AddressSanitizer); only the first
    /// `chunks`, and then no end, when a count is given.
    static func feed<Sink: CaptureSink>(_ capture: SampleCapture, chunks: Int? = nil, to dissector: inout CaptureDissector, into sink: inout Sink) {
        feed(capture.bytes, size: 1024, chunks: chunks, to: &dissector, into: &sink)
    }

    /// Feeds `bytes` to `dissector` in chunks of `size`, each its own allocation freed right after
    /// use; only the first `chunks`, and then no end, when a count is given.
    static func feed<Dissector: ChunkDissector, Sink: CaptureSink>(_ bytes: [UInt8], size: Int, chunks: Int? = nil, to dissector: inout Dissector,
                                                                   into sink: inout Sink) {
        var offset = 0
        var fed = 0
        while offset < bytes.count, fed < chunks ?? .max {
            let end = min(bytes.count, offset + size)
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: end - offset, alignment: 8)
            chunk.copyBytes(from: bytes[offset..<end])
            dissector.append(UnsafeRawBufferPointer(chunk), to: &sink)
            chunk.deallocate()
            offset = end
            fed += 1
        }
        if chunks == nil { dissector.finish(to: &sink) }
    }

    /// The same, rendered in parallel into `sink`.
    static func parallel(_ capture: SampleCapture, style: ListingStyle, hexdump: Bool, workers: Int, batchFrames: Int,
                         into sink: MemoryByteSink = MemoryByteSink(), chunks: Int? = nil) -> MemoryByteSink {
        let rendering = ParallelRendering(style: style, hexdump: hexdump, workers: workers, into: sink, batchBytes: 512, batchFrames: batchFrames)
        var dissector = CaptureDissector()
        var listing = CaptureListing(output: rendering)
        feed(capture, chunks: chunks, to: &dissector, into: &listing)
        return rendering.finish()
    }

    static let modes: [(ListingStyle, Bool)] = [(.summary, false), (.summary, true), (.tree, true), (.json, false)]

    @Test("every sample capture, in every mode, with batches of 1 to 3 frames on 1 to 4 workers: byte for byte one renderer's listing")
    func sameBytesAsOneRenderer() {
        for capture in SampleCapture.all {
            for (style, hexdump) in Self.modes {
                let expected = Self.serial(capture, style: style, hexdump: hexdump)
                #expect(!expected.isEmpty)
                for workers in 1...4 {
                    for batchFrames in 1...3 {
                        let sink = Self.parallel(capture, style: style, hexdump: hexdump, workers: workers, batchFrames: batchFrames)
                        #expect(sink.bytes == expected, "\(capture.name), \(style), hexdump \(hexdump), \(workers) workers, batches of \(batchFrames)")
                        #expect(sink.failure == nil)
                    }
                }
            }
        }
    }

    /// Every committed vector's bytes one after another, with bytes that are not frames between
    /// groups: a stream of good and bad frames and resynchronisations.
    static let vectorStream: [UInt8] = FrameVectorFile.all.flatMap(\.groups).flatMap { group in
        group.tests.flatMap(\.bytes) + Array("not a frame".utf8)
    }

    @Test("a stream (hex, a file of frames) goes through the same listing as a capture: in every mode, in parallel, byte for byte one renderer's")
    func streamAsCapture() {
        for (style, hexdump) in Self.modes {
            var serial = CaptureListing(output: CaptureRenderer(style: style, hexdump: hexdump, layout: .stream))
            StreamCapture.dissect(Self.vectorStream, into: &serial)
            let expected = Array(serial.output.output.bytes)
            #expect(serial.shown >= 50, "a bad frame whose length runs on takes in the vectors after it, as in any stream")
            let resync = style == .json ? #""record":"resync""# : "[Resynchronized] skipped"
            #expect(String(decoding: expected, as: UTF8.self).contains(resync), "\(style): the skips are listed")
            for workers in [1, 3] {
                let rendering = ParallelRendering(style: style, hexdump: hexdump, layout: .stream, workers: workers, into: MemoryByteSink(),
                                                  batchBytes: 512, batchFrames: 2)
                var listing = CaptureListing(output: rendering)
                StreamCapture.dissect(Self.vectorStream, into: &listing)
                #expect(rendering.finish().bytes == expected, "\(style), hexdump \(hexdump), \(workers) workers")
            }
        }
    }

    @Test("a stream fed in chunks of any size, each its own allocation freed right after use, lists byte for byte what the whole stream lists: skipped bytes, and the whole header of a frame refused on its first bytes")
    func streamInChunks() {
        // The vectors of at most 4 KiB each, with bytes that are not frames between groups.
        let stream = FrameVectorFile.all.flatMap(\.groups).flatMap { group in
            group.tests.map(\.bytes).filter { $0.count <= 4096 }.joined() + Array("not a frame".utf8) + [UInt8](repeating: 0, count: 700)
        }
        for style in [ListingStyle.json, .summary] {
            var whole = CaptureListing(output: CaptureRenderer(style: style, layout: .stream))
            StreamCapture.dissect(stream, into: &whole)
            let expected = Array(whole.output.output.bytes)
            #expect(String(decoding: expected, as: UTF8.self).contains(style == .json ? #""record":"resync""# : "[Resynchronized]"))
            for size in [1, 2, 3, 5, 27, 29, 64, 1000, 1 << 16] {
                // Only JSON shows the skipped bytes: the other listings need not keep them.
                for keepsSkippedBytes in style == .json ? [true] : [true, false] {
                    var listing = CaptureListing(output: CaptureRenderer(style: style, layout: .stream))
                    var capture = StreamCapture(keepsSkippedBytes: keepsSkippedBytes)
                    Self.feed(stream, size: size, to: &capture, into: &listing)
                    #expect(Array(listing.output.output.bytes) == expected, "\(style), chunks of \(size) bytes, skipped bytes kept: \(keepsSkippedBytes)")
                }
            }
        }
    }

    @Test("a sink that fills up keeps a prefix of the listing, says why, and the rendering still ends")
    func fullDisk() throws {
        let capture = try #require(SampleCapture.all.first)
        let expected = Self.serial(capture, style: .tree, hexdump: true)
        for room in [0, 1, 100, expected.count / 2, expected.count - 1] {
            let sink = Self.parallel(capture, style: .tree, hexdump: true, workers: 3, batchFrames: 1, into: MemoryByteSink(capacity: room))
            #expect(sink.bytes == Array(expected.prefix(room)), "room for \(room) of \(expected.count) bytes")
            #expect(sink.failure == ENOSPC)
        }
        let roomy = Self.parallel(capture, style: .tree, hexdump: true, workers: 3, batchFrames: 1, into: MemoryByteSink(capacity: expected.count))
        #expect(roomy.bytes == expected && roomy.failure == nil)
    }

    @Test("a listing cut short (an interruption, an unreadable input) ends with what was handed on written, in order")
    func cutShort() {
        for capture in SampleCapture.all {
            let chunks = max(1, capture.bytes.count / 1024 / 2)
            let expected = Self.serial(capture, style: .summary, hexdump: false, chunks: chunks)
            let sink = Self.parallel(capture, style: .summary, hexdump: false, workers: 4, batchFrames: 1, chunks: chunks)
            #expect(sink.bytes == expected, "\(capture.name) cut after \(chunks) KiB")
        }
        // Nothing handed on at all: the workers end, and nothing is written.
        let idle = ParallelRendering(style: .summary, hexdump: false, workers: 4, into: MemoryByteSink())
        #expect(idle.finish().writes == 0)
    }

    #if DEBUG
    @Test("a type that skips exclusivity checks stops a second use under way, in a debug build")
    func exclusiveUseIsChecked() async {
        let use = ExclusiveUse("a test's state")
        use.enter()
        use.leave()
        use.enter()
        use.leave()
        await #expect(processExitsWith: .failure) {
            let use = ExclusiveUse("a test's state")
            use.enter()
            use.enter()
        }
    }
    #endif
}
