import DecafWire

/// libFuzzer entry: the first byte picks decode options and how the rest is cut into appends.
/// Besides "no crash, no hang, no leak", it checks properties that must hold for any input:
/// decoding is the same however the stream is split, whether the decoder keeps the appended arrays
/// or borrows the bytes for a call, and accepted frames re-encode to their bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = input.first else { return 0 }
    let stream = Array(input.dropFirst())
    var options = DecodeOptions()
    // Limits small enough that a bomb costs milliseconds; ZLIB-2 at the default limit is unit-tested.
    options.bodyLimit = [64, 4096, 1 << 20, 0][Int(control & 0x03)]
    options.tlv.depthLimit = Int(control >> 2 & 0x07)
    options.tlv.allowsDuplicateTags = control & 0x20 != 0
    options.acceptsEncryptedBodies = control & 0x40 != 0
    let chunk = control & 0x80 != 0 ? 1 : 7

    let whole = decodeAll([stream[...]], options: options)
    let pieces = stride(from: 0, to: stream.count, by: chunk).map { stream[$0..<min($0 + chunk, stream.count)] }
    precondition(decodeAll(pieces, options: options) == whole, "split decoding differs from whole decoding")
    precondition(decodeBorrowed(pieces, options: options) == whole, "decoding borrowed bytes differs from decoding owned ones")

    return 0
}

/// Frames and errors of `chunks`, resynchronizing after each error as the dissector does.
private func decodeAll(_ chunks: [ArraySlice<UInt8>], options: DecodeOptions) -> [String] {
    var decoder = FrameDecoder(options: options)
    var outcome: [String] = []
    func drain() {
        while true {
            do {
                guard let frame = try decoder.nextFrame() else { return }
                var encoder = FrameEncoder()
                if frame.header.compressType != .zlib || frame.isOpaque {
                    precondition(encoder.encode(frame.header, payload: frame.body) == frame.header.bytes + frame.body,
                                 "an accepted frame does not re-encode to its bytes")
                }
                outcome.append("frame@\(frame.streamOffset):\(frame.wireLength)")
            } catch {
                outcome.append("error@\(error.frameOffset):\(error.code.name):\(error.offset)")
                decoder.resynchronize()
            }
        }
    }
    for chunk in chunks {
        decoder.append(Array(chunk))
        drain()
    }
    do {
        try decoder.finish()
    } catch {
        outcome.append("error@\(error.frameOffset):\(error.code.name):\(error.offset)")
    }
    return outcome
}

/// What `decodeAll` finds, with each chunk lent to the decoder for one call (as a capture reader
/// lends packet payloads) and the frames taken in place.
private func decodeBorrowed(_ chunks: [ArraySlice<UInt8>], options: DecodeOptions) -> [String] {
    var decoder = FrameDecoder(options: options)
    var outcome: [String] = []
    func take(_ view: FrameView) { outcome.append("frame@\(view.streamOffset):\(view.wireLength)") }
    for chunk in chunks {
        var lent = true
        while true {
            do {
                if lent {
                    lent = false
                    _ = try chunk.withUnsafeBytes { bytes in Result { () throws(WireError) in try decoder.decodeFrames(in: bytes, take) } }.get()
                } else {
                    try decoder.decodeFrames(take)
                }
                break
            } catch {
                outcome.append("error@\(error.frameOffset):\(error.code.name):\(error.offset)")
                decoder.resynchronize()
            }
        }
    }
    do {
        try decoder.finish()
    } catch {
        outcome.append("error@\(error.frameOffset):\(error.code.name):\(error.offset)")
    }
    return outcome
}
