import DecafWire

/// Cuts a byte stream into whole frames by their headers' body lengths, for the toxics that act
/// on frames. A cutter started in the middle of a stream (a frame toxic added while the connection
/// lives) first seeks the next magic and lets what comes before it pass as it is. A stream that
/// does not go on with the magic after a frame, or announces a body longer than the proxy holds
/// back, is not cut any more: its bytes pass as they come.
struct FrameCutter: Sendable {
    /// Bytes that come out together: a whole frame, or bytes not read as one.
    struct Piece: Equatable, Sendable {
        var bytes: [UInt8]
        var isFrame: Bool
    }

    private var buffer: [UInt8] = []
    /// Looking for the first magic: the stream was joined in the middle.
    private var seeking: Bool
    /// The stream is not (or no longer) read as frames.
    private(set) var isRaw = false
    /// The longest body held back until it is whole.
    static let largestBody = 16 << 20

    /// A cutter for a stream from its first byte, or, `joiningMidway`, from anywhere in it.
    init(joiningMidway: Bool = false) {
        seeking = joiningMidway
    }

    /// The whole frames (or, once raw, the bytes) that `bytes` completes.
    mutating func cut(_ bytes: [UInt8]) -> [Piece] {
        guard !isRaw else { return [Piece(bytes: bytes, isFrame: false)] }
        buffer += bytes
        var pieces: [Piece] = []
        if seeking {
            // What comes before the magic passes as it is; a magic cut short waits for its end.
            let magic = FrameHeader.resynchronizationPoint(in: buffer[...])
            if magic > 0 { pieces.append(Piece(bytes: Array(buffer[..<magic]), isFrame: false)) }
            buffer.removeFirst(magic)
            guard buffer.count >= FrameHeader.magicBytes.count else { return pieces }
            seeking = false
        }
        var start = 0
        while buffer.count - start >= FrameHeader.size {
            guard buffer[start..<start + 4].elementsEqual(FrameHeader.magicBytes), let header = FrameHeader(decoding: buffer[start...]),
                  header.bodyLength <= UInt32(Self.largestBody) else {
                isRaw = true
                pieces.append(Piece(bytes: Array(buffer[start...]), isFrame: false))
                buffer = []
                return pieces
            }
            let end = start + FrameHeader.size + Int(header.bodyLength)
            guard end <= buffer.count else { break }
            pieces.append(Piece(bytes: Array(buffer[start..<end]), isFrame: true))
            start = end
        }
        buffer.removeFirst(start)
        return pieces
    }

    /// What is left of an unfinished frame when the stream ends.
    mutating func rest() -> [UInt8] {
        defer { buffer = [] }
        return buffer
    }
}
