import Benchmark
import CBaseline
import DecafWire
import ZlibReference

/// Every benchmark is named "<workload>: <implementation>"; implementations of one workload run
/// over the same bytes in the same run, so tools/bench/report.py can report ratios between them.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )

    for workload in [Workload.small, Workload.kilobyte, Workload.large] {
        Benchmark("\(workload.name): DecafWire") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decodeInPlace(workload.stream, chunk: nil, expecting: workload.frames))
            }
        }
        Benchmark("\(workload.name): DecafWire nextFrame") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decodeWithNextFrame(workload.stream, expecting: workload.frames))
            }
        }
        Benchmark("\(workload.name): C baseline") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(decodeWithBaseline(workload.stream, expecting: workload.frames))
            }
        }
    }

    let chunked = Workload.small
    Benchmark("\(chunked.name.replacingOccurrences(of: "decode", with: "decode in 4 KiB reads,")): DecafWire") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try decodeInPlace(chunked.stream, chunk: 4096, expecting: chunked.frames))
        }
    }
    Benchmark("\(chunked.name.replacingOccurrences(of: "decode", with: "decode in 4 KiB reads,")): C baseline") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(decodeWithBaseline(chunked.stream, expecting: chunked.frames))
        }
    }

    for (size, repeats) in [(64, 16_384), (1024, 1024), (65_536, 16)] {
        let bytes = ChatText.bytes(size, seed: size)
        let name = "crc32 of \(size) B (\(repeats) frames, \(size * repeats) B)"
        Benchmark("\(name): DecafWire") { benchmark in
            for _ in benchmark.scaledIterations {
                var crc: UInt32 = 0
                for _ in 0..<repeats { crc ^= CRC32.checksum(bytes) }
                blackHole(crc)
            }
        }
        Benchmark("\(name): libdeflate") { benchmark in
            for _ in benchmark.scaledIterations {
                var crc: UInt32 = 0
                bytes.withUnsafeBytes { raw in
                    for _ in 0..<repeats { crc ^= libdeflateCRC32(raw) }
                }
                blackHole(crc)
            }
        }
        Benchmark("\(name): zlib") { benchmark in
            for _ in benchmark.scaledIterations {
                var crc: UInt32 = 0
                bytes.withUnsafeBufferPointer { buffer in
                    for _ in 0..<repeats { crc ^= UInt32(crc32(0, buffer.baseAddress, uInt(buffer.count))) }
                }
                blackHole(crc)
            }
        }
    }

    for (size, repeats) in [(1024, 64), (65_536, 2)] {
        let text = ChatText.bytes(size, seed: 7)
        let compressed = ZlibCompressor().compress(text)
        let compressName = "compress \(size) B of chat text (\(repeats) frames, \(size * repeats) B)"
        let inflateName = "inflate \(size) B of chat text (\(repeats) frames, \(size * repeats) B)"
        Benchmark("\(compressName): DecafWire") { benchmark in
            let compressor = ZlibCompressor()
            for _ in benchmark.scaledIterations {
                for _ in 0..<repeats { blackHole(compressor.compress(text)) }
            }
        }
        Benchmark("\(compressName): zlib") { benchmark in
            for _ in benchmark.scaledIterations {
                for _ in 0..<repeats { blackHole(zlibCompress(text)) }
            }
        }
        Benchmark("\(inflateName): DecafWire") { benchmark in
            let inflater = ZlibInflater()
            for _ in benchmark.scaledIterations {
                for _ in 0..<repeats { blackHole(try inflater.inflate(compressed, limit: DecodeOptions.defaultBodyLimit)) }
            }
        }
        Benchmark("\(inflateName): zlib") { benchmark in
            for _ in benchmark.scaledIterations {
                for _ in 0..<repeats { blackHole(zlibUncompress(compressed, size: size)) }
            }
        }
    }
}

/// Decodes every frame of `stream` with `decodeFrames`, each frame seen in place, appended whole
/// or in `chunk`-byte reads (each read a new array, as from a socket).
@inline(never)
func decodeInPlace(_ stream: [UInt8], chunk: Int?, expecting count: Int) throws -> UInt64 {
    var decoder = FrameDecoder()
    var sum: UInt64 = 0
    var frames = 0
    var start = 0
    while start < stream.count {
        let end = chunk.map { min(start + $0, stream.count) } ?? stream.count
        decoder.append(chunk == nil ? stream : Array(stream[start..<end]))
        frames += try decoder.decodeFrames { sum &+= UInt64($0.header.sequence.rawValue) }
        start = end
    }
    try decoder.finish()
    precondition(frames == count, "decoded \(frames) of \(count) frames")
    return sum
}

/// Decodes every frame of `stream` with `nextFrame`, each frame an owned value.
@inline(never)
func decodeWithNextFrame(_ stream: [UInt8], expecting count: Int) throws -> UInt64 {
    var decoder = FrameDecoder()
    var frames = 0
    var sum: UInt64 = 0
    decoder.append(stream)
    while let frame = try decoder.nextFrame() {
        frames += 1
        sum &+= UInt64(frame.header.sequence.rawValue)
    }
    try decoder.finish()
    precondition(frames == count, "decoded \(frames) of \(count) frames")
    return sum
}

@inline(never)
func decodeWithBaseline(_ stream: [UInt8], expecting count: Int) -> UInt64 {
    let result = stream.withUnsafeBufferPointer {
        decaf_baseline_decode($0.baseAddress, $0.count, UInt32(DecodeOptions.defaultBodyLimit))
    }
    precondition(result.error == 0 && result.frames == UInt64(count), "baseline: error \(result.error), \(result.frames) frames")
    return result.checksum
}

func zlibCompress(_ input: [UInt8]) -> [UInt8] {
    var size = compressBound(uLong(input.count))
    var out = [UInt8](repeating: 0, count: Int(size))
    let status = out.withUnsafeMutableBufferPointer { output in
        input.withUnsafeBufferPointer { compress2(output.baseAddress, &size, $0.baseAddress, uLong($0.count), 6) }
    }
    precondition(status == Z_OK)
    return Array(out.prefix(Int(size)))
}

func zlibUncompress(_ input: [UInt8], size: Int) -> [UInt8] {
    var length = uLong(size)
    var out = [UInt8](repeating: 0, count: size)
    let status = out.withUnsafeMutableBufferPointer { output in
        input.withUnsafeBufferPointer { uncompress(output.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
    }
    precondition(status == Z_OK && Int(length) == size)
    return out
}
