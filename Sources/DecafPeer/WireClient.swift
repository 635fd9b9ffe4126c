import DecafNIO
import DecafWire
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A client connection for testing a server: it sends frames or any bytes at all, and hands out
/// what comes back (frames, a protocol error, the close) one event at a time with a timeout, so
/// tests wait for events instead of sleeping. Every byte sent and received is kept.
public final class WireClient: Sendable {
    private let channel: Channel
    private let events: WireEventQueue
    private let log: NIOLockedValueBox<(sent: [UInt8], received: [UInt8])>

    private init(channel: Channel, events: WireEventQueue, log: NIOLockedValueBox<(sent: [UInt8], received: [UInt8])>) {
        self.channel = channel
        self.events = events
        self.log = log
    }

    /// Connects to `host`:`port`; frames from the server are decoded with `options` (by default any
    /// minor of major 1, since the server may answer in the version the handshake agreed).
    /// A `receiveBufferSize` sets the kernel receive buffer (SO_RCVBUF); with `readsReplies` false
    /// the client never reads what the server sends, like a stalled mobile client.
    public static func connect(
        host: String, port: Int,
        options: DecodeOptions = DecodeOptions(version: ProtocolVersion(major: 1, minor: .max), acceptsEncryptedBodies: true),
        receiveBufferSize: Int? = nil, readsReplies: Bool = true, group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> WireClient {
        let events = WireEventQueue()
        let log = NIOLockedValueBox((sent: [UInt8](), received: [UInt8]()))
        var bootstrap = ClientBootstrap(group: group)
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
                    try pipeline.addHandler(ByteLogHandler(log: log))
                    try pipeline.addHandler(ByteToMessageHandler(FrameDecoderHandler(options: options)))
                    try pipeline.addHandler(EventHandler(events: events))
                }
            }
            .connect(host: host, port: port)
            .get()
        return WireClient(channel: channel, events: events, log: log)
    }

    /// Sends `header` and `payload` as a frame with body_length and checksum computed.
    public func send(_ frame: OutgoingFrame) async throws {
        var encoder = FrameEncoder()
        try await send(raw: encoder.encode(frame.header, payload: frame.payload))
    }

    /// Sends `bytes` exactly as given: frames, parts of frames, or anything else.
    public func send(raw bytes: [UInt8]) async throws {
        log.withLockedValue { $0.sent += bytes }
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// The next event, or nil if none comes within `timeout`.
    public func next(timeout: Duration = .seconds(5)) async -> WireEvent? {
        await events.next(timeout: timeout)
    }

    /// The next frame, skipping nothing: nil if the next event is not a frame or none comes.
    public func nextFrame(timeout: Duration = .seconds(5)) async -> Frame? {
        if case let .frame(frame) = await next(timeout: timeout) { return frame }
        return nil
    }

    /// Every byte sent so far.
    public var sentBytes: [UInt8] { log.withLockedValue { $0.sent } }
    /// Every byte received so far.
    public var receivedBytes: [UInt8] { log.withLockedValue { $0.received } }

    /// Whether the connection is still open.
    public var isOpen: Bool { channel.isActive }

    /// Closes the connection.
    public func close() async {
        try? await channel.close()
    }
}

/// Keeps a copy of every byte received.
private final class ByteLogHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let log: NIOLockedValueBox<(sent: [UInt8], received: [UInt8])>

    init(log: NIOLockedValueBox<(sent: [UInt8], received: [UInt8])>) { self.log = log }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        log.withLockedValue { $0.received += buffer.readableBytesView }
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
