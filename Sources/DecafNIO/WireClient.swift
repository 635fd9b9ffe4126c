import DecafWire
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A client connection for testing a server: it sends frames or any bytes at all, and hands out
/// what comes back (frames, a protocol error, the close) one event at a time with a timeout, so
/// tests wait for events instead of sleeping. With `recordsTranscript` it keeps the bytes sent and
/// received, in order, for reports. What it keeps of a server that sends without end is bounded:
/// at most 4 MiB of frames not yet taken (then it stops reading until they are), and a
/// `BoundedTranscript` (its first and last 256 KiB).
public final class WireClient: Sendable {
    private let channel: Channel
    private let events: WireEventQueue
    private let recorder: TranscriptRecorder?

    private init(channel: Channel, events: WireEventQueue, recorder: TranscriptRecorder?) {
        self.channel = channel
        self.events = events
        self.recorder = recorder
    }

    /// Connects to `host`:`port`, giving up after `timeout`; frames from the server are decoded
    /// with `options` (by default any minor of major 1, since the server may answer in the version
    /// the handshake agreed). A `receiveBufferSize` sets the kernel receive buffer (SO_RCVBUF);
    /// with `readsReplies` false the client never reads what the server sends, like a stalled
    /// mobile client.
    public static func connect(
        host: String, port: Int,
        options: DecodeOptions = .observer,
        receiveBufferSize: Int? = nil, readsReplies: Bool = true, recordsTranscript: Bool = false,
        timeout: Duration = .seconds(10),
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> WireClient {
        let events = WireEventQueue()
        let recorder = recordsTranscript ? TranscriptRecorder() : nil
        var bootstrap = ClientBootstrap(group: group).channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(TimeAmount(timeout))
        if let receiveBufferSize {
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBufferSize))
        }
        if !readsReplies {
            bootstrap = bootstrap.channelOption(.autoRead, value: false)
        }
        let channel = try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let recorder { try pipeline.addHandler(ReceivedBytesRecorder(recorder: recorder)) }
                    try pipeline.addHandler(ByteToMessageHandler(FrameDecoderHandler(options: options)))
                    try pipeline.addHandler(EventHandler(events: events))
                }
            }
            .connect(host: host, port: port)
            .get()
        if readsReplies {
            // Frames waiting past the queue's budget: read no more until the caller takes them.
            events.onPressure { [channel] full in
                channel.eventLoop.execute {
                    _ = channel.setOption(.autoRead, value: !full)
                    if !full { channel.read() }
                }
            }
        }
        return WireClient(channel: channel, events: events, recorder: recorder)
    }

    /// Sends `header` and `payload` as a frame with body_length and checksum computed.
    public func send(_ frame: OutgoingFrame) async throws {
        var encoder = FrameEncoder()
        try await send(raw: encoder.encode(frame.header, payload: frame.payload))
    }

    /// Sends `bytes` exactly as given: frames, parts of frames, or anything else. `label` says what
    /// they are in the transcript. Throws `WriteStalled` when the server has not taken them all
    /// within `limit` (it stopped reading), and when the task is cancelled.
    public func send(raw bytes: some Collection<UInt8>, label: String? = nil, within limit: Duration = .seconds(10)) async throws {
        let all = Array(bytes)
        recorder?.record(.sent, all, label: label)
        // Written in pieces, so a server that stops reading is told by how far it got.
        let taken = NIOLockedValueBox(0)
        var writes: [EventLoopFuture<Void>] = []
        var offset = 0
        repeat {
            let end = min(all.count, offset + Self.writePiece)
            let count = end - offset
            let write = channel.write(ByteBuffer(bytes: all[offset..<end]))
            write.whenSuccess { taken.withLockedValue { $0 += count } }
            writes.append(write)
            offset = end
        } while offset < all.count
        channel.flush()
        let loop = channel.eventLoop
        let outcome = loop.makePromise(of: Void.self)
        EventLoopFuture.andAllSucceed(writes, on: loop).cascade(to: outcome)
        let started = ContinuousClock.now
        let timer = loop.scheduleTask(in: TimeAmount(limit)) {
            outcome.fail(WriteStalled(taken: taken.withLockedValue { $0 }, total: all.count, waited: ContinuousClock.now - started))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await outcome.futureResult.get()
        } onCancel: {
            outcome.fail(CancellationError())
        }
    }

    /// Writes are handed to the channel in pieces of this size.
    static let writePiece = 64 << 10

    /// Sends `bytes` (an ACK of the server's frame) without waiting for them to be taken: false,
    /// sending nothing, when the server is not reading what was sent before (the connection's
    /// outgoing bytes are over NIO's high-water mark), so a server that sends without end and
    /// never reads costs neither memory nor a wait per ACK.
    @discardableResult
    public func acknowledge(_ bytes: [UInt8], label: String) -> Bool {
        guard channel.isWritable, channel.isActive else { return false }
        recorder?.record(.sent, bytes, label: label)
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
        return true
    }

    /// Ends the sending side of the connection (a half-close): the server sees the stream end
    /// once it has read everything sent before. Throws `WriteStalled` when that has not happened
    /// within `limit`.
    public func endStream(within limit: Duration = .seconds(10)) async throws {
        let loop = channel.eventLoop
        let outcome = loop.makePromise(of: Void.self)
        channel.close(mode: .output, promise: outcome)
        let started = ContinuousClock.now
        let timer = loop.scheduleTask(in: TimeAmount(limit)) {
            outcome.fail(WriteStalled(taken: 0, total: 0, waited: ContinuousClock.now - started))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await outcome.futureResult.get()
        } onCancel: {
            outcome.fail(CancellationError())
        }
    }

    /// Every byte sent and received so far, in order; empty unless the client records one.
    public var transcript: [TranscriptEntry] { recorder?.entries ?? [] }

    /// The next event, or nil if none comes within `timeout`.
    public func next(timeout: Duration = .seconds(5)) async -> WireEvent? {
        await events.next(timeout: timeout)
    }

    /// The next frame, skipping nothing: nil if the next event is not a frame or none comes.
    public func nextFrame(timeout: Duration = .seconds(5)) async -> Frame? {
        if case let .frame(frame) = await next(timeout: timeout) { return frame }
        return nil
    }

    /// Whether the connection is still open.
    public var isOpen: Bool { channel.isActive }

    /// Closes the connection.
    public func close() async {
        try? await channel.close()
    }
}

/// A write the server did not take in time: it stopped reading (or never started).
public struct WriteStalled: Error, CustomStringConvertible {
    /// Bytes of the write the server took, and the write's size.
    public let taken: Int
    /// The bytes of the write.
    public let total: Int
    /// How long the write waited.
    public let waited: Duration

    /// What the server did not take, and how long Decaf waited for it.
    public var description: String {
        total == 0 ? "the server did not read to the end of the stream within \(waited)"
            : "the server stopped reading: it took \(taken) of \(total) bytes in \(waited)"
    }
}

/// The transcript of one connection, written from the event loop and the caller alike, within
/// `BoundedTranscript`'s bound.
private final class TranscriptRecorder: Sendable {
    private let start = ContinuousClock.now
    private let box = NIOLockedValueBox(BoundedTranscript())

    func record(_ direction: TranscriptEntry.Direction, _ bytes: [UInt8], label: String? = nil) {
        let entry = TranscriptEntry(direction: direction, time: ContinuousClock.now - start, bytes: bytes, label: label)
        box.withLockedValue { $0.append(entry) }
    }

    var entries: [TranscriptEntry] { box.withLockedValue { $0.entries } }
}

/// Records every read before the frame decoder sees it.
private final class ReceivedBytesRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let recorder: TranscriptRecorder

    init(recorder: TranscriptRecorder) { self.recorder = recorder }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        recorder.record(.received, Array(buffer.readableBytesView))
        context.fireChannelRead(data)
    }
}

/// Turns what the decoder passes on into events.
private final class EventHandler: ChannelInboundHandler {
    typealias InboundIn = Frame

    private let events: WireEventQueue
    private var failed = false

    init(events: WireEventQueue) { self.events = events }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        events.push(.frame(unwrapInboundIn(data)))
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? WireError, !failed {
            failed = true
            events.push(.error(error))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        events.push(.closed)
        context.fireChannelInactive()
    }
}
