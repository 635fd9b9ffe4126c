import DecafCapture
import DecafDissect

/// libFuzzer entry for the listing engine: the first byte picks a mode (mostly the cheap summary:
/// the renderers have targets of their own, FuzzDissector and FuzzCapture), 1 or 2 workers (each a
/// thread started and ended per input, which costs more than most inputs' dissection), batches of
/// 1 to 4 frames and a chunk size; the rest is a capture file. The capture is fed in chunks that each have an allocation of their own, freed as
/// soon as the dissector returns, so a view kept past its call (a frame, a packet, a body) is a
/// use after free that AddressSanitizer reports. The parallel listing must be byte for byte what
/// one renderer writes from the same frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRendering(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let control = data.pointee
    let file = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let (style, hexdump) = [(ListingStyle.summary, false), (.summary, true), (.tree, true), (.json, false)][max(0, Int(control & 0x07) - 4)]
    let workers = Int(control >> 3 & 0x01) + 1
    let batchFrames = Int(control >> 4 & 0x03) + 1
    let chunk = [16, 256, 1500, 4096][Int(control >> 6)]

    var serial = CaptureListing(output: CaptureRenderer(style: style, hexdump: hexdump))
    feed(file, chunk: chunk, into: &serial)
    let rendering = ParallelRendering(style: style, hexdump: hexdump, workers: workers, into: MemoryByteSink(), batchBytes: 512, batchFrames: batchFrames)
    var parallel = CaptureListing(output: rendering)
    feed(file, chunk: chunk, into: &parallel)
    let written = rendering.finish()
    precondition(written.failure == nil && written.bytes.elementsEqual(serial.output.output.bytes), "the parallel listing differs from one renderer's")
    return 0
}

/// Dissects `file` into `sink`, `chunk` bytes at a time, each chunk in a fresh allocation freed
/// right after the dissector returns.
private func feed<Sink: CaptureSink>(_ file: UnsafeRawBufferPointer, chunk: Int, into sink: inout Sink) {
    var dissector = CaptureDissector()
    var offset = 0
    while offset < file.count {
        let count = min(chunk, file.count - offset)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        copy.copyMemory(from: UnsafeRawBufferPointer(rebasing: file[offset..<(offset + count)]))
        dissector.append(UnsafeRawBufferPointer(copy), to: &sink)
        copy.deallocate()
        offset += count
    }
    dissector.finish(to: &sink)
}
