import DecafWire

/// Dissects a byte stream holding any number of frames: every frame is reported, good or bad, and
/// after a bad one decoding resumes at the next magic, saying how far it skipped. Good frames are
/// handed on in place, in the bytes they arrived in; only a refused frame is copied, to be shown.
public struct StreamDissector {
    public let options: DecodeOptions
    private var decoder: FrameDecoder
    private var count = 0
    /// Set while resynchronizing: the decoder's discarded-byte count when the error happened.
    private var discardedAtError: Int?

    /// A dissector with `options`; encrypted bodies are always accepted as opaque, since a
    /// dissector shows them rather than refusing them.
    public init(options: DecodeOptions = DecodeOptions()) {
        var options = options
        options.acceptsEncryptedBodies = true
        self.options = options
        decoder = FrameDecoder(options: options)
    }

    /// Dissects the next bytes of the stream, borrowed for the call: each frame they complete goes
    /// to `frame` in place (valid only during that call), each resynchronisation to
    /// `resynchronized` (bytes skipped, and where decoding resumed).
    public mutating func append(_ bytes: UnsafeRawBufferPointer, frame: (FrameParts) -> Void, resynchronized: (Int, Int?) -> Void) {
        // Counted here while the decoder hands frames out, and kept once it has: through a pointer,
        // since a variable the handing function captured would be checked for overlapping
        // accesses on every frame.
        var counted = self.count
        defer { self.count = counted }
        withUnsafeMutablePointer(to: &counted) { count in
            func hand(_ view: FrameView) {
                count.pointee += 1
                frame(FrameParts(index: count.pointee, view: view))
            }
            decode(bytes, count: count, hand: hand, frame: frame, resynchronized: resynchronized)
        }
    }

    /// `append`'s work, with the frame count behind `count`.
    private mutating func decode(_ bytes: UnsafeRawBufferPointer, count: UnsafeMutablePointer<Int>, hand: (FrameView) -> Void,
                                 frame: (FrameParts) -> Void, resynchronized: (Int, Int?) -> Void) {
        var borrowed = true
        if discardedAtError != nil {
            decoder.append(Array(bytes))
            borrowed = false
        }
        while true {
            do {
                if discardedAtError != nil {
                    // The first frame after an error comes alone, so how far the decoder skipped to
                    // reach it is known before it is shown.
                    guard let next = try decoder.nextFrame() else { return }
                    noteResumption(at: next.streamOffset, resynchronized)
                    next.withView(hand)
                    continue
                }
                if borrowed {
                    borrowed = false
                    try decoder.decodeFrames(in: bytes, hand)
                } else {
                    try decoder.decodeFrames(hand)
                }
                return
            } catch {
                borrowed = false
                count.pointee += 1
                record(error, index: count.pointee, frame, resynchronized)
                discardedAtError = decoder.discardedByteCount
                decoder.resynchronize()
            }
        }
    }

    /// The end of the stream: how much was skipped looking for a magic that never came, or a
    /// truncated last frame, after which there is nothing to resume.
    public mutating func finish(frame: (FrameParts) -> Void, resynchronized: (Int, Int?) -> Void) {
        do {
            try decoder.finish()
        } catch {
            count += 1
            record(error, index: count, frame, resynchronized)
        }
        noteResumption(at: nil, resynchronized)
    }

    /// Declares `count` bytes of the stream missing (see `FrameDecoder.skipGap`); returns how many
    /// buffered bytes of an unfinished frame were lost with them. Decoding resumes at the next magic.
    public mutating func skipGap(_ count: Int) -> Int {
        let dropped = decoder.skipGap(count)
        discardedAtError = decoder.discardedByteCount
        return dropped
    }

    /// Stream offset of the first byte not yet part of a reported frame or skipped.
    public var streamOffset: Int { decoder.streamOffset }

    /// Stream offset of the first byte not yet reported as part of a frame or of a skip: where a
    /// skip under way began (the bytes it passed over so far lie just before `streamOffset`), else
    /// `streamOffset`. A caller that shows skipped bytes keeps the stream from here on.
    public var unreportedOffset: Int {
        decoder.streamOffset - (discardedAtError.map { decoder.discardedByteCount - $0 } ?? 0)
    }

    /// Reports a refused frame, numbered `index`, from the bytes of it that arrived, after the
    /// skip that led to it.
    private mutating func record(_ error: WireError, index: Int, _ frame: (FrameParts) -> Void, _ resynchronized: (Int, Int?) -> Void) {
        noteResumption(at: error.frameOffset, resynchronized)
        FrameRecord(index: index, error: error, bytes: decoder.failedFrameBytes ?? [], options: options).withParts(frame)
    }

    /// Says how many bytes were skipped since the last error, now that decoding resumed at
    /// `offset` (nil: the stream ended).
    private mutating func noteResumption(at offset: Int?, _ resynchronized: (Int, Int?) -> Void) {
        guard let discardedAtError else { return }
        self.discardedAtError = nil
        let skipped = decoder.discardedByteCount - discardedAtError
        if skipped > 0 { resynchronized(skipped, offset) }
    }
}
