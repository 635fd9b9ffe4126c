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
/// that straddles two appends are copied. Memory therefore stays within one partial frame plus the
/// latest append, as long as frames are taken out after each append; work is linear in the input.
///
/// After an error the decoder keeps throwing it: a receiver closes the connection (EX-5). Tools
/// that want to read on call `resynchronize()`, which skips to the next magic.
public struct FrameDecoder {
    public var options: DecodeOptions

    /// Stream offset of the next frame to decode: bytes consumed so far.
    public private(set) var streamOffset = 0
    /// Bytes skipped by resynchronization since the decoder was created.
    public private(set) var discardedByteCount = 0

    /// Appended bytes not yet consumed, decoded in place.
    private var input: ArraySlice<UInt8> = []
    /// The beginning of a frame that did not fit in one append; logically precedes `input`.
    private var carry: [UInt8] = []
    private var failure: Failure?
    private var isHunting = false
    private var inflater: ZlibInflater?

    private struct Failure {
        var error: WireError
        /// True when the failed frame was whole and has been consumed (a body error).
        var consumedFrame: Bool
        /// What arrived of the failed frame (see `failedFrameBytes`).
        var bytes: ArraySlice<UInt8>
    }

    private enum Boundary {
        case incomplete(expected: Int?)
        case complete(length: Int)
    }

    public init(options: DecodeOptions = DecodeOptions()) {
        self.options = options
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { carry.count + input.count }

    /// After an error, what arrived of the frame at fault, for tools that show it: the whole frame
    /// for a body error, what there was of an unfinished frame for TRUNCATED_FRAME, and at most the
    /// header for a header error. Nil when there is no error.
    public var failedFrameBytes: ArraySlice<UInt8>? { failure?.bytes }

    /// Adds bytes read from the stream. The array is kept, not copied, until its frames are taken.
    public mutating func append(_ bytes: [UInt8]) {
        append(bytes[...])
    }

    /// Adds bytes read from the stream. The slice is kept, not copied, until its frames are taken.
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        if !input.isEmpty { carry.append(contentsOf: input) }
        input = bytes
    }

    /// Adds bytes read from the stream.
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        append(Array(bytes))
    }

    /// The next complete frame, nil if more bytes are needed, or the first rule the stream breaks.
    public mutating func nextFrame() throws(WireError) -> Frame? {
        if let failure { throw failure.error }
        if isHunting {
            hunt()
            if isHunting { return nil }
        }
        do {
            return carry.isEmpty ? try frameFromInput() : try frameFromCarry()
        } catch {
            guard failure == nil else { throw error }
            var error = error
            error.frameOffset = streamOffset
            let header = (carry + input.prefix(FrameHeader.size)).prefix(FrameHeader.size)
            failure = Failure(error: error, consumedFrame: false, bytes: header)
            throw error
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
        var pending = carry
        pending.append(contentsOf: input)
        let boundary: Boundary
        do {
            boundary = try Self.boundary(of: pending[...], options: options)
        } catch {
            var error = error
            error.frameOffset = streamOffset
            failure = Failure(error: error, consumedFrame: false, bytes: pending.prefix(FrameHeader.size))
            throw error
        }
        guard case let .incomplete(expected) = boundary else { return }
        let error = WireError(
            .truncatedFrame(received: pending.count, expected: expected),
            offset: streamOffset, frameOffset: streamOffset
        )
        failure = Failure(error: error, consumedFrame: false, bytes: pending[...])
        throw error
    }

    /// Recovers from the last error by skipping to the next magic, for tools that report an error
    /// and read on. A frame whose body was at fault is skipped whole; after a header error the
    /// search starts one byte into the bad frame. Skipped bytes are added to `discardedByteCount`.
    public mutating func resynchronize() {
        guard let failure else { return }
        self.failure = nil
        if !failure.consumedFrame { discard(1) }
        isHunting = true
    }

    // MARK: - Decoding

    private mutating func frameFromInput() throws(WireError) -> Frame? {
        guard !input.isEmpty else { return nil }
        switch try Self.boundary(of: input, options: options) {
        case .incomplete:
            carry.append(contentsOf: input)
            input = []
            return nil
        case let .complete(length):
            let bytes = input.prefix(length)
            input = input.count == length ? [] : input.dropFirst(length)
            return try accept(bytes)
        }
    }

    private mutating func frameFromCarry() throws(WireError) -> Frame? {
        while true {
            switch try Self.boundary(of: carry[...], options: options) {
            case let .incomplete(expected):
                guard !input.isEmpty else { return nil }
                let wanted = (expected ?? FrameHeader.size) - carry.count
                let taken = input.prefix(wanted)
                carry.append(contentsOf: taken)
                input = input.count == taken.count ? [] : input.dropFirst(taken.count)
            case let .complete(length):
                let bytes = carry.prefix(length)
                if carry.count == length {
                    carry = []
                } else {
                    carry.removeFirst(length)
                }
                return try accept(bytes)
            }
        }
    }

    /// Checks the header prefix of `bytes` and says whether a whole frame is there.
    private static func boundary(of bytes: ArraySlice<UInt8>, options: DecodeOptions) throws(WireError) -> Boundary {
        try bytes.withRawBytes { raw throws(WireError) -> Boundary in
            try HeaderValidator.validate(prefix: UnsafeRawBufferPointer(rebasing: raw.prefix(FrameHeader.size)), options: options)
            guard raw.count >= FrameHeader.size else { return .incomplete(expected: nil) }
            let length = FrameHeader.size + Int(raw.bigEndianUInt32(at: FrameHeader.Field.bodyLength.offset))
            return raw.count >= length ? .complete(length: length) : .incomplete(expected: length)
        }
    }

    /// Checks the body of the whole frame in `bytes` and returns the frame; the frame is consumed
    /// whether or not its body is valid.
    private mutating func accept(_ bytes: ArraySlice<UInt8>) throws(WireError) -> Frame {
        let frameOffset = streamOffset
        streamOffset += bytes.count
        do {
            return try checkBody(of: bytes, frameOffset: frameOffset)
        } catch {
            var error = error
            error.frameOffset = frameOffset
            failure = Failure(error: error, consumedFrame: true, bytes: bytes)
            throw error
        }
    }

    private mutating func checkBody(of bytes: ArraySlice<UInt8>, frameOffset: Int) throws(WireError) -> Frame {
        let header = bytes.withUnsafeBytes { FrameHeader(decoding: $0)! }
        let body = bytes.dropFirst(FrameHeader.size)
        let computed = body.withUnsafeBytes { CRC32.checksum($0) }
        guard computed == header.checksum else {
            throw WireError(.checksumMismatch(stored: header.checksum, computed: computed), offset: FrameHeader.Field.checksum.offset)
        }
        let payload: ArraySlice<UInt8>
        if header.encryptType == .aes256 {
            payload = []
        } else if header.compressType == .zlib && !body.isEmpty {
            if !isKnownUniquelyReferenced(&inflater) { inflater = ZlibInflater() }
            payload = try inflater!.inflate(body, limit: options.bodyLimit)[...]
        } else {
            payload = body
        }
        try TLVValidator.validate(payload, options: options.tlv)
        return Frame(header: header, body: body, payload: payload, streamOffset: frameOffset)
    }

    // MARK: - Resynchronization

    /// Skips bytes until the magic starts the buffer, or until what is left could be the start of
    /// a magic that the next append completes.
    private mutating func hunt() {
        if !carry.isEmpty {
            carry.append(contentsOf: input)
            input = carry[...]
            carry = []
        }
        let magic: [UInt8] = [0xDE, 0xCA, 0xFB, 0xAD]
        var index = input.startIndex
        while index < input.endIndex {
            let available = min(4, input.endIndex - index)
            if input[index..<(index + available)].elementsEqual(magic.prefix(available)) { break }
            index += 1
        }
        discard(index - input.startIndex)
        isHunting = input.count < 4
    }

    private mutating func discard(_ count: Int) {
        var remaining = count
        let fromCarry = min(remaining, carry.count)
        carry.removeFirst(fromCarry)
        remaining -= fromCarry
        input = input.count == remaining ? [] : input.dropFirst(remaining)
        streamOffset += count
        discardedByteCount += count
    }
}
