import DecafDissect
import DecafWire

/// libFuzzer entry: the first byte picks decode options and a renderer (summary, tree with the
/// hexdump, tree, JSON), the rest is a stream, dissected and rendered as `dissect` takes a file of
/// frames (a capture of one connection): its frames and the renderer must survive whatever the
/// decoder makes of hostile bytes. The stream is dissected twice, whole and in chunks of 1 to 64
/// bytes (the size from the input's length), each chunk its own allocation freed right after use
/// (a view kept past its call is a use after free under AddressSanitizer); both must list the
/// same bytes, since a stream's listing must not depend on where its reads ended.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDissector(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    var options = DecodeOptions()
    options.bodyLimit = [64, 4096, 1 << 20, 0][Int(control & 0x03)]
    options.tlv.depthLimit = Int(control >> 2 & 0x07)
    options.tlv.allowsDuplicateTags = control & 0x20 != 0
    let (style, hexdump) = [(ListingStyle.tree, true), (.summary, false), (.json, false), (.tree, false)][Int(control >> 6)]
    let stream = Array(input.dropFirst())

    var whole = CheckedListing(renderer: CaptureRenderer(style: style, hexdump: hexdump, layout: .stream))
    StreamCapture.dissect(stream, options: options, into: &whole)

    var chunked = CheckedListing(renderer: CaptureRenderer(style: style, hexdump: hexdump, layout: .stream))
    var capture = StreamCapture(options: options)
    let chunkSize = 1 + size % 64
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + chunkSize)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: end - offset, alignment: 1)
        chunk.copyBytes(from: stream[offset..<end])
        capture.append(UnsafeRawBufferPointer(chunk), to: &chunked)
        chunk.deallocate()
        offset = end
    }
    capture.finish(to: &chunked)
    precondition(chunked.renderer.output.bytes.elementsEqual(whole.renderer.output.bytes), "the listing depends on where the stream's chunks end")
    return 0
}

/// Renders every event, checking each frame's number and where its error lies.
private struct CheckedListing: CaptureSink {
    var renderer: CaptureRenderer
    var frames = 0

    mutating func frame(_ frame: CapturedFrameView) {
        frames += 1
        let parts = frame.parts
        precondition(parts.index == frames, "frames are numbered in order")
        precondition(parts.error.map { $0.frameOffset == parts.streamOffset } ?? parts.isValid, "an error is reported where its frame starts")
        renderer.frame(frame)
    }

    mutating func note(_ event: CaptureEvent) {
        renderer.note(event)
    }
}
