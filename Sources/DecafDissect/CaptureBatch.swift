import DecafCapture
import DecafWire

/// A run of a capture's events in capture order, with bytes of their own: what one thread hands
/// another so frames can be rendered on every core. Frames are copied in as they come (their
/// bytes, readable body and packets, into one block each), and `replay` shows them to a sink
/// again, in place, exactly as they first came. A frame costs a copy of its bytes and a few words:
/// what repeats (its connection) or is rare (an error) is kept once, aside.
public struct CaptureBatch: Sendable {
    /// The frames' bytes and readable bodies, one after another.
    private var arena: [UInt8] = []
    /// The frames' packet numbers, one after another.
    private var packets: [Int] = []
    private var frames: [Frame] = []
    /// Events that are not frames, each with how many frames come before it.
    private var notes: [(position: Int, event: CaptureEvent)] = []
    /// The connections of the batch's frames, and the errors of its refused frames.
    private var connections: [TCPConnection] = []
    private var errors: [(error: WireError?, untrustedBodyError: WireError?)] = []

    /// A frame as the batch keeps it: numbers, and ranges of the batch's storage.
    private struct Frame: Sendable {
        var index: Int
        var streamOffset: Int
        var bytes: Range<Int>
        /// nil: the frame's body cannot be read.
        var payload: Range<Int>?
        var packets: Range<Int>
        var completedBy: Int
        var time: CaptureTime
        var connection: Int32
        /// Where the frame's errors are in `errors`, or -1.
        var errors: Int32
        var isServerToClient: Bool
        /// Whether the frame's first 28 bytes are its header (see `FrameParts.header`).
        var hasHeader: Bool
    }

    /// An empty batch with room for about `bytes` bytes of frames and `frames` frames.
    public init(bytes: Int = 0, frames: Int = 0) {
        arena.reserveCapacity(bytes)
        packets.reserveCapacity(frames)
        self.frames.reserveCapacity(frames)
    }

    /// Bytes the batch holds, for deciding when to hand it on.
    public var byteCount: Int { arena.count }

    /// Frames the batch holds.
    public var frameCount: Int { frames.count }

    public var isEmpty: Bool { frames.isEmpty && notes.isEmpty }

    /// Adds a frame, copying what it shows.
    public mutating func add(_ frame: CapturedFrameView) {
        let parts = frame.parts
        let bytes = arena.count..<(arena.count + parts.bytes.count)
        arena.append(contentsOf: parts.bytes)
        var payload: Range<Int>?
        if let body = parts.payload {
            if let offset = Self.offset(of: body, in: parts.bytes) {
                // A plain body lies in the frame's bytes, just copied: kept as a range of them.
                payload = (bytes.lowerBound + offset)..<(bytes.lowerBound + offset + body.count)
            } else {
                payload = arena.count..<(arena.count + body.count)
                arena.append(contentsOf: body)
            }
        }
        let packetRange = packets.count..<(packets.count + frame.packets.count)
        // Most frames came in one packet, and appending one number costs far less than a run of them.
        if frame.packets.count == 1 {
            packets.append(frame.packets[0])
        } else {
            packets.append(contentsOf: frame.packets)
        }
        if connections.last?.index != frame.connection.index { connections.append(frame.connection) }
        var errorSlot: Int32 = -1
        if parts.error != nil || parts.untrustedBodyError != nil {
            errorSlot = Int32(errors.count)
            errors.append((parts.error, parts.untrustedBodyError))
        }
        frames.append(Frame(
            index: parts.index, streamOffset: parts.streamOffset, bytes: bytes, payload: payload, packets: packetRange,
            completedBy: frame.completedBy, time: frame.time, connection: Int32(connections.count - 1), errors: errorSlot,
            isServerToClient: frame.direction == .serverToClient, hasHeader: parts.header != nil
        ))
    }

    /// Where `inner` starts in `outer`, when it lies wholly inside it.
    private static func offset(of inner: UnsafeRawBufferPointer, in outer: UnsafeRawBufferPointer) -> Int? {
        guard let start = inner.baseAddress, let base = outer.baseAddress, start >= base,
              start + inner.count <= base + outer.count else { return nil }
        return base.distance(to: start)
    }

    /// Adds an event that is not a frame.
    public mutating func add(_ note: CaptureEvent) {
        notes.append((frames.count, note))
    }

    /// Shows every event of the batch to `sink`, in order, frames in place.
    public func replay<Sink: CaptureSink>(into sink: inout Sink) {
        var nextNote = 0
        arena.withUnsafeBytes { arena in
            packets.withUnsafeBufferPointer { packets in
                for (position, frame) in frames.enumerated() {
                    while nextNote < notes.count, notes[nextNote].position <= position {
                        sink.note(notes[nextNote].event)
                        nextNote += 1
                    }
                    assert(frame.bytes.upperBound <= arena.count && (frame.payload?.upperBound ?? 0) <= arena.count
                           && frame.packets.upperBound <= packets.count, "a batch's frame \(position) lies outside the batch's storage")
                    let bytes = UnsafeRawBufferPointer(rebasing: arena[frame.bytes])
                    let errors: (error: WireError?, untrustedBodyError: WireError?) = frame.errors < 0 ? (nil, nil) : self.errors[Int(frame.errors)]
                    let parts = FrameParts(
                        index: frame.index, streamOffset: frame.streamOffset, bytes: bytes,
                        header: frame.hasHeader ? FrameHeader(decoding: bytes) : nil,
                        payload: frame.payload.map { UnsafeRawBufferPointer(rebasing: arena[$0]) },
                        error: errors.error, untrustedBodyError: errors.untrustedBodyError
                    )
                    sink.frame(CapturedFrameView(parts: parts, connection: connections[Int(frame.connection)],
                                                 direction: frame.isServerToClient ? .serverToClient : .clientToServer,
                                                 packets: UnsafeBufferPointer(rebasing: packets[frame.packets]),
                                                 completedBy: frame.completedBy, time: frame.time))
                }
            }
        }
        for note in notes[nextNote...] { sink.note(note.event) }
    }
}
