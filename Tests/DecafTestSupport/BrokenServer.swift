import DecafWire
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// A zoo of servers that are not working Decaf servers, on loopback, for tests that point a
/// command at each and check that it ends in time with the cause in one paragraph.
public final class BrokenServer: Sendable {
    /// How the server misbehaves.
    public enum Kind: String, CaseIterable, Sendable {
        /// Accepts and never reads.
        case neverReads = "accepts and never reads"
        /// Reads everything and never writes.
        case neverWrites = "reads and never writes"
        /// Answers the first bytes with an HTTP response.
        case http = "answers HTTP"
        /// Answers with a TLS ServerHello.
        case tls = "answers a TLS ServerHello"
        /// Sends an SSH banner as soon as a client connects.
        case ssh = "sends an SSH banner"
        /// Closes every connection at once.
        case closes = "closes at once"
        /// Resets every connection at once.
        case resets = "resets at once"
        /// Answers with a valid ACK, one byte a second.
        case slow = "sends valid frames at one byte a second"
        /// Sends the first 10 bytes of an ACK, then nothing.
        case stalls = "stalls in the middle of a frame"
        /// Answers with bytes that are neither a frame nor text.
        case garbage = "answers garbage"

        /// Words one of which the one-paragraph cause must contain for this server. What a client
        /// sees of a server that closes or resets at once depends on who was first: a write
        /// reaching a closed socket is reset, a reset before the client reads may look like an
        /// end of stream, and one before the connection completes fails the connection.
        public var causes: [String] {
            switch self {
            case .neverReads, .neverWrites: ["nothing within"]
            case .http: ["HTTP"]
            case .tls: ["TLS"]
            case .ssh: ["SSH banner"]
            case .closes, .resets: ["closed it without sending a byte", "reset it without sending a byte", "reset the connection as soon as it was made"]
            case .slow, .stalls: ["began a frame"]
            case .garbage: ["bytes that are not a Decaf frame"]
            }
        }
    }

    public let kind: Kind
    private let channel: Channel

    private init(kind: Kind, channel: Channel) {
        self.kind = kind
        self.channel = channel
    }

    /// The port it listens on.
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Starts a server of `kind` on a free loopback port.
    public static func start(_ kind: Kind) async throws -> BrokenServer {
        var bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        if kind == .neverReads { bootstrap = bootstrap.childChannelOption(.autoRead, value: false) }
        let channel = try await bootstrap
            .childChannelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Misbehaviour(kind)) } }
            .bind(host: "127.0.0.1", port: 0).get()
        return BrokenServer(kind: kind, channel: channel)
    }

    /// Stops listening; connections still open stay until their peer closes them.
    public func stop() async {
        try? await channel.close()
    }

    /// What a server of one kind does on each connection.
    private final class Misbehaviour: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let kind: Kind

        init(_ kind: Kind) { self.kind = kind }

        static let ack: [UInt8] = {
            let header = FrameHeader(messageType: .ack, sequence: SequenceNumber(category: .control, counter: 1), timestamp: 1_700_000_000,
                                     sessionID: SessionID(rawValue: 1))
            return header.bytes
        }()

        func channelActive(context: ChannelHandlerContext) {
            switch kind {
            case .ssh: write("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", context)
            case .closes: context.close(promise: nil)
            case .resets:
                let channel = context.channel
                (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
            default: break
            }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch kind {
            case .http: write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", context)
            case .tls: write([0x16, 0x03, 0x03, 0x00, 0x31, 0x02, 0x00, 0x00, 0x2D, 0x03, 0x03] + [UInt8](repeating: 0x42, count: 40), context)
            case .garbage: write((7..<200).map { UInt8($0) }, context)
            case .stalls: write(Array(Self.ack.prefix(10)), context)
            case .slow: dribble(Self.ack, context.channel)
            default: break
            }
        }

        private func write(_ text: String, _ context: ChannelHandlerContext) {
            write(Array(text.utf8), context)
        }

        private func write(_ bytes: [UInt8], _ context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
        }

        /// Writes `bytes` one a second, while the connection lasts.
        private func dribble(_ bytes: [UInt8], _ channel: Channel) {
            guard let first = bytes.first, channel.isActive else { return }
            channel.writeAndFlush(ByteBuffer(bytes: [first]), promise: nil)
            let rest = Array(bytes.dropFirst())
            channel.eventLoop.scheduleTask(in: .seconds(1)) { self.dribble(rest, channel) }
        }
    }
}
