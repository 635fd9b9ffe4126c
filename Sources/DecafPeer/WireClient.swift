import DecafNIO
import DecafWire
import NIOCore
import NIOPosix

/// A client connection for testing a server: it sends frames or any bytes at all, and hands out
/// what comes back (frames, a protocol error, the close) one event at a time with a timeout, so
/// tests wait for events instead of sleeping.
public final class WireClient: Sendable {
    private let channel: Channel
    private let events: WireEventQueue

    private init(channel: Channel, events: WireEventQueue) {
        self.channel = channel
        self.events = events
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
                    try pipeline.addHandler(ByteToMessageHandler(FrameDecoderHandler(options: options)))
                    try pipeline.addHandler(EventHandler(events: events))
                }
            }
            .connect(host: host, port: port)
            .get()
        return WireClient(channel: channel, events: events)
    }

    /// Sends `header` and `payload` as a frame with body_length and checksum computed.
    public func send(_ frame: OutgoingFrame) async throws {
        var encoder = FrameEncoder()
        try await send(raw: encoder.encode(frame.header, payload: frame.payload))
    }

    /// Sends `bytes` exactly as given: frames, parts of frames, or anything else.
    public func send(raw bytes: [UInt8]) async throws {
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

    /// Whether the connection is still open.
    public var isOpen: Bool { channel.isActive }

    /// Closes the connection.
    public func close() async {
        try? await channel.close()
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
