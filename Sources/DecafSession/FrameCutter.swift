import DecafWire

/// Cuts a byte stream into whole frames by their headers' body lengths, for the toxics that act
/// on frames. A stream that does not start with the magic, or announces a body longer than the
/// proxy holds back, is not cut any more: its bytes pass as they come.
struct FrameCutter: Sendable {
    private var buffer: [UInt8] = []
    /// The stream is not (or no longer) read as frames.
    private(set) var isRaw = false
    /// The longest body held back until it is whole.
    static let largestBody = 16 << 20

    /// The whole frames (or, once raw, the bytes) that `bytes` completes.
    mutating func cut(_ bytes: [UInt8]) -> [[UInt8]] {
        guard !isRaw else { return [bytes] }
        buffer += bytes
        var pieces: [[UInt8]] = []
        var start = 0
        while buffer.count - start >= FrameHeader.size {
            guard buffer[start..<start + 4].elementsEqual(FrameHeader.magicBytes), let header = FrameHeader(decoding: buffer[start...]),
                  header.bodyLength <= UInt32(Self.largestBody) else {
                isRaw = true
                pieces.append(Array(buffer[start...]))
                buffer = []
                return pieces
            }
            let end = start + FrameHeader.size + Int(header.bodyLength)
            guard end <= buffer.count else { break }
            pieces.append(Array(buffer[start..<end]))
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
