/// What dissects input fed chunk by chunk as it is read, into a capture sink: a capture file
/// (`CaptureDissector`) or a stream of frames (`StreamCapture`). Each chunk is borrowed for the
/// call; what it completes is handed on in place.
public protocol ChunkDissector {
    mutating func append<Sink: CaptureSink>(_ chunk: UnsafeRawBufferPointer, to sink: inout Sink)
    /// The end of the input: whatever it completes or cuts short.
    mutating func finish<Sink: CaptureSink>(to sink: inout Sink)
}

extension CaptureDissector: ChunkDissector {}
extension StreamCapture: ChunkDissector {}
