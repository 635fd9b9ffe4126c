/// Puts one direction of a TCP connection back in order: sequence numbers modulo 2^32, a SYN
/// starting the stream, retransmitted and overlapping bytes trimmed, segments that arrive early
/// held until the gap before them fills. Bytes that never arrive (lost by the capture, or cut off
/// by its snapshot length) are reported as gaps, never papered over.
///
/// Bytes that arrive in order are handed on in place, where the segment holds them; only a segment
/// that arrives early is copied, to wait.
public struct TCPStreamReassembler {
    /// Out-of-order bytes held before the missing ones are declared lost.
    public static let maximumHeldBytes = 4 << 20

    /// What the reassembler hands on, in stream order.
    public enum Output {
        /// The next bytes of the stream (valid only during the call that received them), carried
        /// by capture packet `packet` and available since packet `completedBy` (later than
        /// `packet` when they arrived early), captured at `time`.
        case data(UnsafeRawBufferPointer, packet: Int, completedBy: Int, time: CaptureTime)
        /// `count` bytes of the stream that the capture does not hold.
        case gap(count: Int, packet: Int, time: CaptureTime)
    }

    /// Bytes passed on so far, gaps included: the stream offset of the next byte.
    public private(set) var streamOffset = 0
    /// Bytes that arrived again after they had been passed on.
    public private(set) var retransmittedBytes = 0
    /// True when the stream's SYN was not captured, so its first bytes may be mid-message.
    public private(set) var startedMidStream = false
    public private(set) var hasStarted = false

    /// Sequence number of stream offset 0.
    private var baseSequence: UInt32 = 0
    /// Segments that arrived early, by stream offset; each starts after `streamOffset`.
    private var held: [Piece] = []
    private var heldBytes = 0

    private struct Piece {
        var start: Int
        var payload: [UInt8]
        var missing: Int
        var packet: Int
        var time: CaptureTime
        var end: Int { start + payload.count + missing }
    }

    public init() {}

    /// Hands `deliver` what `segment`, captured in packet `packet` at `time`, completes.
    public mutating func add(_ segment: TCPSegment, packet: Int, time: CaptureTime, _ deliver: (Output) -> Void) {
        var sequence = segment.sequence
        if segment.flags.contains(.syn) {
            sequence &+= 1
            if !hasStarted {
                baseSequence = sequence
                hasStarted = true
            }
        }
        let length = segment.payload.count + segment.missingPayload
        guard length > 0 else { return }
        if !hasStarted {
            baseSequence = sequence
            hasStarted = true
            startedMidStream = true
        }
        let nextSequence = baseSequence &+ UInt32(truncatingIfNeeded: streamOffset)
        let start = streamOffset + Int(Int32(bitPattern: sequence &- nextSequence))
        guard start + length > streamOffset else {
            retransmittedBytes += length
            return
        }
        if start <= streamOffset {
            pass(start: start, payload: segment.payload, missing: segment.missingPayload, packet: packet, completedBy: packet, time: time, deliver)
        } else {
            // A segment that must wait for earlier bytes gets bytes of its own: the packet's are
            // gone once this call returns.
            let piece = Piece(start: start, payload: Array(segment.payload), missing: segment.missingPayload, packet: packet, time: time)
            held.insert(piece, at: held.firstIndex { $0.start > start } ?? held.endIndex)
            heldBytes += length
        }
        drain(completedBy: packet, time: time, deliver)
        while heldBytes > Self.maximumHeldBytes, let first = held.first {
            skip(to: first.start, packet: packet, time: time, deliver)
            drain(completedBy: packet, time: time, deliver)
        }
    }

    /// The end of the capture: whatever is still held follows a gap that will not fill.
    public mutating func finish(_ deliver: (Output) -> Void) {
        releaseHeld(noticedAt: nil, deliver)
    }

    /// Stops waiting for the bytes missing before what is held: each gap is reported, noticed at
    /// `packet`, and what was held is passed on. Bytes that arrive later for those gaps count as
    /// retransmitted. The tracker calls it when all connections together hold too much.
    public mutating func stopWaiting(packet: Int, time: CaptureTime, _ deliver: (Output) -> Void) {
        releaseHeld(noticedAt: (packet, time), deliver)
    }

    /// Every gap before held bytes reported and the held bytes passed on, as noticed at `moment`,
    /// or, without one, at each held piece's own packet.
    private mutating func releaseHeld(noticedAt moment: (packet: Int, time: CaptureTime)?, _ deliver: (Output) -> Void) {
        while let first = held.first {
            let (packet, time) = moment ?? (first.packet, first.time)
            skip(to: first.start, packet: packet, time: time, deliver)
            drain(completedBy: packet, time: time, deliver)
        }
    }

    /// Bytes held out of order, waiting for earlier ones.
    public var heldByteCount: Int { heldBytes }

    private mutating func skip(to offset: Int, packet: Int, time: CaptureTime, _ deliver: (Output) -> Void) {
        guard offset > streamOffset else { return }
        deliver(.gap(count: offset - streamOffset, packet: packet, time: time))
        streamOffset = offset
    }

    /// Passes on every held piece that now starts at or before the stream offset, as made
    /// available by packet `completedBy` at `time`.
    private mutating func drain(completedBy: Int, time: CaptureTime, _ deliver: (Output) -> Void) {
        while let piece = held.first, piece.start <= streamOffset {
            held.removeFirst()
            heldBytes -= piece.payload.count + piece.missing
            guard piece.end > streamOffset else {
                retransmittedBytes += piece.payload.count + piece.missing
                continue
            }
            piece.payload.withUnsafeBytes { payload in
                pass(start: piece.start, payload: payload, missing: piece.missing, packet: piece.packet, completedBy: completedBy, time: time, deliver)
            }
        }
    }

    /// Passes on the bytes from `start` (at or before the stream offset, ending after it) that are
    /// new: `payload`, then `missing` bytes the capture cut off.
    private mutating func pass(start: Int, payload: UnsafeRawBufferPointer, missing: Int, packet: Int, completedBy: Int, time: CaptureTime,
                               _ deliver: (Output) -> Void) {
        let overlap = streamOffset - start
        let end = start + payload.count + missing
        retransmittedBytes += overlap
        if overlap < payload.count {
            deliver(.data(UnsafeRawBufferPointer(rebasing: payload[overlap...]), packet: packet, completedBy: completedBy, time: time))
        }
        let capturedEnd = start + payload.count
        if end > max(capturedEnd, streamOffset) {
            deliver(.gap(count: end - max(capturedEnd, streamOffset), packet: completedBy, time: time))
        }
        streamOffset = end
    }
}
