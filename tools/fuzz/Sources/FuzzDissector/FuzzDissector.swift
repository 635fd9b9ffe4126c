import DecafDissect
import DecafWire

/// libFuzzer entry: the first byte picks decode options and a renderer (summary, tree with the
/// hexdump, tree, JSON), the rest is a stream, dissected and rendered as `dissect` takes a file of
/// frames (a capture of one connection): its frames and the renderer must survive whatever the
/// decoder makes of hostile bytes. One renderer per input keeps each run short; the control
/// byte's mutations reach all of them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDissector(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    var options = DecodeOptions()
    options.bodyLimit = [64, 4096, 1 << 20, 0][Int(control & 0x03)]
    options.tlv.depthLimit = Int(control >> 2 & 0x07)
    options.tlv.allowsDuplicateTags = control & 0x20 != 0
    let (style, hexdump) = [(ListingStyle.tree, true), (.summary, false), (.json, false), (.tree, false)][Int(control >> 6)]
    var checked = CheckedListing(renderer: CaptureRenderer(style: style, hexdump: hexdump, layout: .stream))
    StreamCapture.dissect(Array(input.dropFirst()), options: options, into: &checked)
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
        renderer.output.removeAll()
    }

    mutating func note(_ event: CaptureEvent) {
        renderer.note(event)
        renderer.output.removeAll()
    }
}
