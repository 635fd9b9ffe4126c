import DecafCapture
import DecafWire

/// A stream of frames (hex, or a file of frames) dissected as a capture of one connection, so it
/// goes through the sinks, listing and renderers a capture goes through (`ListingLayout.stream`
/// places its frames by stream offset). Frames are handed on in place, as a capture's are; a
/// resynchronisation carries the bytes it skipped, since the stream is at hand.
public enum StreamCapture {
    /// The one connection a stream stands for, its endpoints unknown.
    public static let connection = TCPConnection(index: 1, client: unknown, server: unknown)
    private static let unknown = TCPEndpoint(address: IPAddress([0, 0, 0, 0]), port: 0)
    /// The direction its frames travel: the stream has only one.
    public static let direction = TCPDirection.clientToServer

    /// The capture time of every frame: a stream has none.
    private static let start = CaptureTime(seconds: 0, nanoseconds: 0)

    /// Dissects the whole `stream` into `sink`: every frame, good or bad, and every skip after a
    /// bad one, in stream order.
    public static func dissect<Sink: CaptureSink>(_ stream: [UInt8], options: DecodeOptions = DecodeOptions(), into sink: inout Sink) {
        var dissector = StreamDissector(options: options)
        stream.withUnsafeBytes { bytes in
            func frame(_ parts: FrameParts) {
                sink.frame(CapturedFrameView(parts: parts, connection: connection, direction: direction, packets: UnsafeBufferPointer(start: nil, count: 0),
                                             completedBy: 0, time: start))
            }
            func resynchronized(_ skipped: Int, _ resumedAt: Int?) {
                let end = resumedAt ?? stream.count
                sink.note(.resynchronized(connection, direction, skipped: skipped, resumedAt: resumedAt,
                                          skippedBytes: (end - skipped, Array(stream[(end - skipped)..<end]))))
            }
            dissector.append(bytes, frame: frame, resynchronized: resynchronized)
            dissector.finish(frame: frame, resynchronized: resynchronized)
        }
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
}
