/// Decodes a byte stream into frames as the bytes arrive: append what was read, take complete
/// frames out, and call `finish()` when the stream ends.
///
/// Frames may be split across appends or several may arrive in one (FRAME-3). Each frame is
/// checked in the brief's order: the header as soon as its fields have arrived (an oversized
/// body_length is refused before any of the body is buffered, FRAME-2), then the checksum before
/// anything reads the body (CRC-2), then decompression under the body limit (ZLIB-2), then the TLV
/// rules.
///
/// An appended array is decoded in place: frames share its storage, and only the bytes of a frame
/// that straddles two appends are copied, once. Appends that arrive before earlier ones are drained
/// wait in order, uncopied. Memory is the undrained appends plus at most one partial frame; work is
/// linear in the input.
///
/// After an error the decoder keeps throwing it: a receiver closes the connection (EX-5). Tools
/// that want to read on call `resynchronize()`, which skips to the next magic.
public struct FrameDecoder {
    /// What the receiver accepts: limits, version, strictness.
    public var options: DecodeOptions

    /// Stream offset of the next frame to decode: bytes consumed so far.
    public private(set) var streamOffset = 0
    /// Bytes skipped by resynchronization since the decoder was created.
    public private(set) var discardedByteCount = 0

    /// The append being decoded, in place, from `position` on.
    private var input: [UInt8] = []
    private var position = 0
    /// Appends that follow `input`, oldest first.
    private var queued: [[UInt8]] = []
    /// The beginning of one frame that did not fit in the append it started in; logically precedes
    /// `input`. It never holds more than that frame.
    private var carry: [UInt8] = []
    private var failure: Failure?
    /// What arrived of the failed frame (see `failedFrameBytes`); empty without a failure.
    private var failedBytes: ArraySlice<UInt8> = []
    private var isHunting = false
    private var inflater: ZlibInflater?

    private struct Failure {
        var error: WireError
        /// True when the failed frame was whole and has been consumed (a body error).
        var consumedFrame: Bool
    }

    /// A decoder of a stream that has not begun, accepting what `options` allow.
    public init(options: DecodeOptions = DecodeOptions()) {
        self.options = options
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { carry.count + (input.count - position) + queued.reduce(0) { $0 + $1.count } }

    /// After an error, what arrived of the frame at fault, for tools that show it: the whole frame
    /// for a body error, what there was of an unfinished frame for TRUNCATED_FRAME, and at most the
    /// header for a header error. Nil when there is no error.
    public var failedFrameBytes: ArraySlice<UInt8>? { failure == nil ? nil : failedBytes }

    /// Adds bytes read from the stream. The array is kept, not copied, until its frames are taken.
    public mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if position >= input.count && queued.isEmpty {
            input = bytes
            position = 0
        } else {
            queued.append(bytes)
        }
    }

    /// Adds bytes read from the stream (copied: keep whole arrays to decode in place).
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        append(Array(bytes))
    }

    /// The next complete frame, nil if more bytes are needed, or the first rule the stream breaks.
    /// The frame shares storage with the appended bytes; `decodeFrames(_:)` is the faster way
    /// through a stream when frames need not outlive their handling.
    public mutating func nextFrame() throws(WireError) -> Frame? {
        if failure == nil, !isHunting, carry.isEmpty, advanceInput(), let frame = takeAcceptedFrame() { return frame }
        var frame: Frame?
        _ = try decode(limit: 1) { frame = $0.frame }
        return frame
    }

    /// The frame at the front of the current append when it is whole, in clear, uncompressed and
    /// passes every check (`FrameScan.acceptedLength`, as `decodeRun` takes such frames), taken
    /// without the decoding loop's handout: most frames are such, and `nextFrame` makes one per call.
    @inline(__always)
    private mutating func takeAcceptedFrame() -> Frame? {
        let start = position
        let options = options
        guard let (length, header) = input.withUnsafeBytes({ raw -> (Int, FrameHeader)? in
            let rest = UnsafeRawBufferPointer(rebasing: raw[start...])
            return FrameScan.acceptedLength(rest, options: options).map { ($0, FrameHeader(unchecked: rest)) }
        }) else { return nil }
        position = start + length
        streamOffset += length
        return Frame(header: header, body: input[(start + FrameHeader.size)..<position], streamOffset: streamOffset - length)
    }

    /// Decodes every complete frame buffered so far and hands each to `handle` in place, without
    /// copying or retaining anything per frame. Returns how many frames it handed out, or throws
    /// the first rule the stream breaks (after handing out the frames before it).
    @discardableResult
    public mutating func decodeFrames(_ handle: (FrameView) -> Void) throws(WireError) -> Int {
        try decode(limit: .max) { handle($0.view) }
    }

    /// Decodes the frames that `bytes` completes and hands each to `handle` in place, as
    /// `decodeFrames(_:)` does, without taking the bytes: they are borrowed for the call, and only
    /// what is left of them (an unfinished frame, or everything from a frame at fault on) is
    /// copied and kept. A frame begun in an earlier call is completed with just the bytes it
    /// lacks. This is how a capture reader hands on packet payloads without copying them.
    @discardableResult
    public mutating func decodeFrames(in bytes: UnsafeRawBufferPointer, _ handle: (FrameView) -> Void) throws(WireError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        guard failure == nil, !isHunting, queued.isEmpty, position >= input.count else {
            append(Array(bytes))
            return try decodeFrames(handle)
        }
        // Every append has been decoded; only `carry` may hold a frame begun earlier.
        input = []
        position = 0
        var offset = 0
        do {
            var count = 0
            if !carry.isEmpty {
                guard try completeCarry(from: bytes, offset: &offset) else { return 0 }
                count = try decodeCarry { handle($0.view) }
            }
            return try count + decodeRun(bytes, position: &offset, storage: nil, limit: .max) { handle($0.view) }
        } catch {
            // What is left of the borrowed bytes is kept: the frame at fault on, for `resynchronize()`.
            input = Array(bytes[offset...])
            throw error
        }
    }

    /// A frame as the decoding loop hands it out: in place, with what `nextFrame()` needs to keep it.
    private struct Handout {
        /// The frame, in place.
        var view: FrameView
        /// The append that holds the frame when the decoder owns it (not bytes borrowed for a call).
        var storage: [UInt8]?
        /// Where the frame is in `storage`.
        var range: Range<Int>
        /// The inflated body of a compressed frame.
        var inflated: [UInt8]?

        /// The frame as a value: sharing the append's storage, or a copy of borrowed bytes.
        var frame: Frame {
            guard let storage else { return view.frame }
            let body = storage[(range.lowerBound + FrameHeader.size)..<range.upperBound]
            return Frame(header: view.header, body: body, inflated: inflated, streamOffset: view.streamOffset)
        }
    }

    /// The one decoding loop behind `nextFrame()` and `decodeFrames(_:)`: hands out up to `limit`
    /// frames, after repeating an error, hunting for a magic, or completing a frame carried over
    /// from an earlier append, as the decoder's state asks; then decodes the appends in place.
    @inline(__always)
    private mutating func decode(limit: Int, _ handle: (Handout) -> Void) throws(WireError) -> Int {
        var count = 0
        while count < limit {
            if let failure { throw failure.error }
            if isHunting {
                hunt()
                if isHunting { return count }
            }
            if !carry.isEmpty {
                guard try completeCarryFromAppends() else { return count }
                count += try decodeCarry(handle)
                continue
            }
            guard advanceInput() else { return count }
            let input = self.input
            var position = self.position
            defer { self.position = position }
            count += try input[...].withRawBytes { raw throws(WireError) in
                try decodeRun(raw, position: &position, storage: input, limit: limit - count, handle)
            }
        }
        return count
    }

    /// Hands out, in place, up to `limit` whole frames of `raw` from `position` on, leaving
    /// `position` after the last byte it consumed: the end, once an unfinished frame has gone to
    /// `carry`, or the frame at fault (after it, for a body error). `storage` holds `raw` when it
    /// is an owned append, so a frame (or a failed frame's bytes) can be kept without a copy.
    @inline(__always)
    private mutating func decodeRun(
        _ raw: UnsafeRawBufferPointer, position: inout Int, storage: [UInt8]?, limit: Int, _ handle: (Handout) -> Void
    ) throws(WireError) -> Int {
        var count = 0
        while count < limit && position < raw.count {
            let start = position
            let rest = UnsafeRawBufferPointer(rebasing: raw[start...])
            if let length = FrameScan.acceptedLength(rest, options: options) {
                position = start + length
                streamOffset += length
                let bytes = UnsafeRawBufferPointer(rebasing: rest[..<length])
                let view = FrameView(bytes: bytes, streamOffset: streamOffset - length, payload: UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size...]))
                handle(Handout(view: view, storage: storage, range: start..<position, inflated: nil))
                count += 1
                continue
            }
            guard let (length, inflated) = try step(raw, at: start, position: &position, storage: storage) else { break }
            let bytes = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
            let frameOffset = streamOffset - length
            if let inflated {
                inflated.withUnsafeBytes { payload in
                    let view = FrameView(bytes: bytes, streamOffset: frameOffset, payload: payload)
                    handle(Handout(view: view, storage: storage, range: start..<position, inflated: inflated))
                }
            } else {
                let opaque = bytes[FrameHeader.Field.encryptType.offset] == EncryptType.aes256.rawValue
                let payload = opaque ? UnsafeRawBufferPointer(start: nil, count: 0) : UnsafeRawBufferPointer(rebasing: bytes[FrameHeader.size...])
                handle(Handout(view: FrameView(bytes: bytes, streamOffset: frameOffset, payload: payload), storage: storage, range: start..<position, inflated: nil))
            }
            count += 1
        }
        return count
    }

    /// Moves into `carry` what the frame begun there lacks, from `offset` of `source` on, judging
    /// its header again after every addition (header fields that arrive may break a rule): true
    /// once `carry` holds the whole frame, false when `source` runs out first. A header error is
    /// recorded and thrown, with `offset` left at the first byte not taken.
    private mutating func completeCarry(from source: UnsafeRawBufferPointer, offset: inout Int) throws(WireError) -> Bool {
        while true {
            let scan: FrameScan
            do {
                scan = try FrameScan.header(carry[...], options: options)
            } catch {
                throw fail(headerError: error, bytes: (carry + source[offset...].prefix(FrameHeader.size)).prefix(FrameHeader.size))
            }
            guard case let .incomplete(expected) = scan else { return true }
            guard offset < source.count else { return false }
            let taken = min((expected ?? FrameHeader.size) - carry.count, source.count - offset)
            carry.append(contentsOf: source[offset..<(offset + taken)])
            offset += taken
        }
    }

    /// `completeCarry` from the current append on, then the queued ones.
    private mutating func completeCarryFromAppends() throws(WireError) -> Bool {
        repeat {
            let input = self.input
            var position = self.position
            defer { self.position = position }
            if try input[...].withRawBytes({ raw throws(WireError) in try completeCarry(from: raw, offset: &position) }) { return true }
        } while advanceInput()
        return false
    }

    /// Decodes the one whole frame `carry` holds as an append of its own.
    private mutating func decodeCarry(_ handle: (Handout) -> Void) throws(WireError) -> Int {
        let carried = carry
        carry = []
        var end = 0
        return try carried[...].withRawBytes { raw throws(WireError) in
            try decodeRun(raw, position: &end, storage: carried, limit: 1, handle)
        }
    }

    /// Declares the end of the stream. Throws TRUNCATED_FRAME (or the header error the partial
    /// frame already shows) if a frame was left incomplete; call it once `nextFrame()` returns nil.
    public mutating func finish() throws(WireError) {
        if let failure { throw failure.error }
        if isHunting {
            discard(bufferedByteCount)
            isHunting = false
            return
        }
        guard bufferedByteCount > 0 else { return }
        let pending = carry + input[position...] + queued.joined()
        let scan: FrameScan
        do {
            scan = try FrameScan.header(pending[...], options: options)
        } catch {
            throw fail(headerError: error, bytes: pending.prefix(FrameHeader.size))
        }
        guard case let .incomplete(expected) = scan else { return }
        let error = WireError(.truncatedFrame(received: pending.count, expected: expected), offset: streamOffset, frameOffset: streamOffset)
        failure = Failure(error: error, consumedFrame: false)
        failedBytes = pending[...]
        throw error
    }

    /// Recovers from the last error by skipping to the next magic, for tools that report an error
    /// and read on. A frame whose body was at fault is skipped whole; after a header error the
    /// search starts one byte into the bad frame. Skipped bytes are added to `discardedByteCount`.
    public mutating func resynchronize() {
        guard let failure else { return }
        self.failure = nil
        failedBytes = []
        if !failure.consumedFrame { discard(1) }
        isHunting = true
    }

    /// Declares that `count` bytes of the stream are missing (a capture lost them) after those
    /// appended so far: the frame in progress cannot be completed, so its buffered bytes are
    /// dropped, and decoding resumes at the next magic after the gap. Returns how many buffered
    /// bytes were dropped. Also clears an error, as `resynchronize()` does. With a `count` of 0 it
    /// makes a decoder that joins a stream mid-way look for the first magic.
    @discardableResult
    public mutating func skipGap(_ count: Int) -> Int {
        failure = nil
        failedBytes = []
        let dropped = bufferedByteCount
        discard(dropped, skipped: false)
        streamOffset += count
        isHunting = true
        return dropped
    }

    // MARK: - Decoding

    /// Decodes the frame at `start` of `raw` as far as it has arrived: nil (the partial frame
    /// copied to `carry`, `position` at the end) if it is incomplete; else the frame is consumed,
    /// whether or not it is valid, and its length and inflated body (for a compressed frame) are
    /// returned, or its error is recorded and thrown. `storage`, when given, holds `raw`, so the
    /// bytes of a failed frame are kept without a copy.
    @inline(__always)
    private mutating func step(
        _ raw: UnsafeRawBufferPointer, at start: Int, position: inout Int, storage: [UInt8]?
    ) throws(WireError) -> (length: Int, inflated: [UInt8]?)? {
        let frame = UnsafeRawBufferPointer(rebasing: raw[start...])
        let length: Int
        do {
            switch try FrameScan.scan(frame, options: options) {
            case .incomplete:
                carry.append(contentsOf: frame)
                position = raw.count
                return nil
            case let .frame(frameLength):
                length = frameLength
            }
        } catch {
            switch error {
            case let .header(error):
                throw fail(headerError: error, bytes: frame.prefix(FrameHeader.size))
            case let .body(error, length):
                position = start + length
                streamOffset += length
                throw fail(bodyError: error, frame: Self.bytes(start..<(start + length), of: raw, storage: storage))
            }
        }
        position = start + length
        streamOffset += length
        let compressed = frame[FrameHeader.Field.compressType.offset] == CompressType.zlib.rawValue
        guard compressed, length > FrameHeader.size, frame[FrameHeader.Field.encryptType.offset] != EncryptType.aes256.rawValue else {
            return (length, nil)
        }
        do throws(WireError) {
            let payload = try uniqueInflater().inflate(UnsafeRawBufferPointer(rebasing: frame[FrameHeader.size..<length]), limit: options.bodyLimit)
            try TLVValidator.validate(payload, options: options.tlv)
            return (length, payload)
        } catch {
            throw fail(bodyError: error, frame: Self.bytes(start..<(start + length), of: raw, storage: storage))
        }
    }

    /// Bytes `range` of `raw`: a slice of `storage` when it holds them, else a copy.
    private static func bytes(_ range: Range<Int>, of raw: UnsafeRawBufferPointer, storage: [UInt8]?) -> ArraySlice<UInt8> {
        storage.map { $0[range] } ?? ArraySlice(raw[range])
    }

    /// The inflater, made on the first compressed frame; a copy of the decoder gets its own.
    private mutating func uniqueInflater() -> ZlibInflater {
        if isKnownUniquelyReferenced(&inflater), let inflater { return inflater }
        let fresh = ZlibInflater()
        inflater = fresh
        return fresh
    }

    /// Records the body error of the whole (consumed) frame `frame`, which ends at `streamOffset`,
    /// and returns it.
    private mutating func fail(bodyError: WireError, frame: ArraySlice<UInt8>) -> WireError {
        var error = bodyError
        error.frameOffset = streamOffset - frame.count
        failure = Failure(error: error, consumedFrame: true)
        failedBytes = frame
        return error
    }

    /// Makes `input` an append with bytes left to decode, taking the next queued one when the
    /// current one is used up; false when there is none.
    private mutating func advanceInput() -> Bool {
        while position >= input.count {
            guard !queued.isEmpty else {
                input = []
                position = 0
                return false
            }
            input = queued.removeFirst()
            position = 0
        }
        return true
    }

    /// Records a header error of the frame at `streamOffset` and returns it.
    private mutating func fail(headerError: WireError, bytes: some Sequence<UInt8>) -> WireError {
        var error = headerError
        error.frameOffset = streamOffset
        failure = Failure(error: error, consumedFrame: false)
        failedBytes = ArraySlice(bytes)
        return error
    }

    // MARK: - Resynchronization

    /// Skips bytes until the magic starts the buffer, or until what is left could be the start of
    /// a magic that the next append completes.
    private mutating func hunt() {
        if !carry.isEmpty || !queued.isEmpty {
            input = carry + input[position...] + queued.joined()
            position = 0
            carry = []
            queued = []
        }
        discard(FrameHeader.resynchronizationPoint(in: input[position...]) - position)
        isHunting = input.count - position < 4
    }

    /// Drops `count` buffered bytes from the front: from `carry`, then the appends in order.
    /// `skipped` counts them in `discardedByteCount` (bytes passed over by resynchronization,
    /// not lost to a gap).
    private mutating func discard(_ count: Int, skipped: Bool = true) {
        let fromCarry = min(count, carry.count)
        carry.removeFirst(fromCarry)
        var remaining = count - fromCarry
        while remaining > 0 && advanceInput() {
            let taken = min(remaining, input.count - position)
            position += taken
            remaining -= taken
        }
        streamOffset += count
        if skipped { discardedByteCount += count }
    }
}
