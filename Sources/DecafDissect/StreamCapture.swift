import DecafCapture
import DecafWire

/// A stream of frames (hex, or a file of frames) dissected as a capture of one connection, so it
/// goes through the sinks, listing and renderers a capture goes through (`ListingLayout.stream`
/// places its frames by stream offset). It is fed in chunks as they are read, like
/// `CaptureDissector`, and what it hands on does not depend on where the chunks end: the whole
/// stream is the input, not what had arrived when. Frames are handed on in place; only the bytes
/// not yet reported are kept, so that a skip can carry the bytes it passed over and a frame refused
/// on its first bytes can show the whole header a stream read at once would show.
public struct StreamCapture {
    /// The one connection a stream stands for, its endpoints unknown.
    public static let connection = TCPConnection(index: 1, client: unknown, server: unknown)
    private static let unknown = TCPEndpoint(address: IPAddress([0, 0, 0, 0]), port: 0)
    /// The direction its frames travel: the stream has only one.
    public static let direction = TCPDirection.clientToServer
    /// The capture time of every frame: a stream has none.
    private static let start = CaptureTime(seconds: 0, nanoseconds: 0)

    private var dissector: StreamDissector
    private var state: State

    /// A dissector with `options` (see `StreamDissector`); `keepsSkippedBytes` false leaves the
    /// skipped bytes out of the notes (only JSON shows them), and memory flat however long a skip.
    public init(options: DecodeOptions = DecodeOptions(), keepsSkippedBytes: Bool = true) {
        dissector = StreamDissector(options: options)
        state = State(options: dissector.options, keepsSkippedBytes: keepsSkippedBytes)
    }

    /// Dissects the next bytes of the stream, borrowed for the call, into `sink`.
    public mutating func append<Sink: CaptureSink>(_ bytes: UnsafeRawBufferPointer, to sink: inout Sink) {
        dissect(bytes, to: &sink)
    }

    /// The end of the stream: a frame cut short, a skip to the end, and whatever waited for bytes.
    public mutating func finish<Sink: CaptureSink>(to sink: inout Sink) {
        dissect(nil, to: &sink)
    }

    /// Dissects the whole `stream` into `sink`.
    public static func dissect<Sink: CaptureSink>(_ stream: [UInt8], options: DecodeOptions = DecodeOptions(), keepsSkippedBytes: Bool = true,
                                                  into sink: inout Sink) {
        var capture = StreamCapture(options: options, keepsSkippedBytes: keepsSkippedBytes)
        stream.withUnsafeBytes { capture.append($0, to: &sink) }
        capture.finish(to: &sink)
    }

    /// Every event of the whole `stream`, as owned values.
    public static func events(of stream: [UInt8], options: DecodeOptions = DecodeOptions()) -> [CaptureEvent] {
        var list = CaptureEventList()
        dissect(stream, options: options, into: &list)
        return list.events
    }

    /// A frame record of a stream, as the stream's capture shows it.
    public static func frame(_ record: FrameRecord) -> CapturedFrame {
        CapturedFrame(record: record, connection: connection, direction: direction, packets: [], completedBy: 0, time: start)
    }

    /// `append` (`bytes`) or `finish` (nil), with the state moved out of `self` for the call: the
    /// dissector's handlers change it while the dissector runs.
    private mutating func dissect<Sink: CaptureSink>(_ bytes: UnsafeRawBufferPointer?, to sink: inout Sink) {
        var state = State(options: dissector.options, keepsSkippedBytes: self.state.keepsSkippedBytes)
        swap(&state, &self.state)
        let finished = bytes == nil
        if let bytes { state.kept.append(contentsOf: bytes) }
        state.flush(to: &sink, finished: false)
        func frame(_ parts: FrameParts) { state.deliver(parts, finished: finished, to: &sink) }
        func resynchronized(_ skipped: Int, _ resumedAt: Int?) { state.note(skipped: skipped, resumedAt: resumedAt, to: &sink) }
        if let bytes {
            dissector.append(bytes, frame: frame, resynchronized: resynchronized)
        } else {
            dissector.finish(frame: frame, resynchronized: resynchronized)
        }
        state.flush(to: &sink, finished: finished)
        state.forget(before: state.keepsSkippedBytes ? dissector.unreportedOffset : dissector.streamOffset)
        swap(&state, &self.state)
    }

    private static func hand<Sink: CaptureSink>(_ parts: FrameParts, to sink: inout Sink) {
        sink.frame(CapturedFrameView(parts: parts, connection: connection, direction: direction, packets: UnsafeBufferPointer(start: nil, count: 0),
                                     completedBy: 0, time: start))
    }

    /// The bytes kept, and what waits for more of them.
    private struct State {
        let options: DecodeOptions
        let keepsSkippedBytes: Bool
        /// The stream from offset `keptFrom` on.
        var kept: [UInt8] = []
        var keptFrom = 0
        /// Events held back, in order, behind a frame refused before its header had all arrived.
        var held: [Held] = []

        enum Held {
            /// A frame the decoder refused on its first bytes: a stream read at once shows its
            /// first 28 bytes (or as many as the stream has), so it waits for them.
            case refused(index: Int, error: WireError, offset: Int)
            case event(CaptureEvent)
        }

        init(options: DecodeOptions, keepsSkippedBytes: Bool) {
            self.options = options
            self.keepsSkippedBytes = keepsSkippedBytes
        }

        /// The stream offset just past the last byte received.
        var end: Int { keptFrom + kept.count }

        /// A frame the dissector reports: handed on in place, unless it or something before it
        /// waits for bytes.
        mutating func deliver<Sink: CaptureSink>(_ parts: FrameParts, finished: Bool, to sink: inout Sink) {
            flush(to: &sink, finished: false)
            if !finished, let error = parts.error, error.code != .truncatedFrame, parts.bytes.count < FrameHeader.size,
               parts.streamOffset + FrameHeader.size > end {
                held.append(.refused(index: parts.index, error: error, offset: parts.streamOffset))
            } else if held.isEmpty {
                StreamCapture.hand(parts, to: &sink)
            } else {
                held.append(.event(.frame(StreamCapture.frame(FrameRecord(parts)))))
            }
        }

        /// A skip the dissector reports, with the bytes it passed over.
        mutating func note<Sink: CaptureSink>(skipped: Int, resumedAt: Int?, to sink: inout Sink) {
            var bytes: (from: Int, bytes: [UInt8])?
            if keepsSkippedBytes {
                let last = resumedAt ?? end
                let first = last - skipped
                assert(first >= keptFrom && last <= end, "skipped bytes \(first)..<\(last) were not kept (\(keptFrom)..<\(end))")
                bytes = (first, Array(kept[(first - keptFrom)..<(last - keptFrom)]))
            }
            let event = CaptureEvent.resynchronized(connection, direction, skipped: skipped, resumedAt: resumedAt, skippedBytes: bytes)
            if held.isEmpty { sink.note(event) } else { held.append(.event(event)) }
        }

        /// Hands on what was held back, in order, as far as the bytes it waits for are here (all of
        /// it once the stream is `finished`).
        mutating func flush<Sink: CaptureSink>(to sink: inout Sink, finished: Bool) {
            while let first = held.first {
                switch first {
                case let .refused(index, error, offset):
                    guard finished || offset + FrameHeader.size <= end else { return }
                    let bytes = kept[(offset - keptFrom)..<(min(offset + FrameHeader.size, end) - keptFrom)]
                    FrameRecord(index: index, error: error, bytes: bytes, options: options).withParts { StreamCapture.hand($0, to: &sink) }
                case let .event(.frame(frame)):
                    frame.withView { sink.frame($0) }
                case let .event(event):
                    sink.note(event)
                }
                held.removeFirst()
            }
        }

        /// Lets go of the bytes before `offset` that nothing held back needs.
        mutating func forget(before offset: Int) {
            var keepFrom = offset
            if case let .refused(_, _, refused)? = held.first { keepFrom = min(keepFrom, refused) }
            let count = keepFrom - keptFrom
            assert(count >= 0 && count <= kept.count, "bytes up to \(keepFrom) are let go of, outside the bytes kept (\(keptFrom)..<\(end))")
            if count == kept.count {
                kept.removeAll(keepingCapacity: kept.count <= 1 << 20)
            } else if count > 0 {
                kept.removeFirst(count)
            }
            keptFrom = keepFrom
        }
    }
}
