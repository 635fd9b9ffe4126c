import DecafDiagnosis
import DecafNIO
import DecafSession
import DecafWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix

/// The reference peer: a TCP server that speaks the protocol as the brief says (section 7), or
/// with the faults it was configured with, on as many connections as it is allowed.
public final class PeerServer: Sendable {
    /// Where the server listens.
    public let localAddress: SocketAddress
    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup
    private let pcap: NIOWritePCAPHandler.SynchronizedFileSink?
    private let counters: NIOLockedValueBox<PeerStatistics>
    private let stopped = NIOLockedValueBox(false)

    private init(
        channel: Channel, group: MultiThreadedEventLoopGroup, pcap: NIOWritePCAPHandler.SynchronizedFileSink?,
        counters: NIOLockedValueBox<PeerStatistics>
    ) throws {
        guard let address = channel.localAddress else { throw PeerServerError.noLocalAddress }
        localAddress = address
        self.channel = channel
        self.group = group
        self.pcap = pcap
        self.counters = counters
    }

    /// The counters so far.
    public var statistics: PeerStatistics { counters.withLockedValue { $0 } }

    /// Starts a peer listening on `host`:`port` (port 0: any free port; see `localAddress`).
    ///
    /// - Parameters:
    ///   - pcapPath: when set, every connection is recorded to this pcap file.
    ///   - mistakes: codec mistakes the peer's decoder makes (`MistakenFrameDecoderHandler`); none by default.
    ///   - clock: the current UNIX time in seconds, for timestamps, repeats and the timestamp window.
    ///   - onDelivery: hears each DATA frame delivered (not its repeats), on the connection's loop.
    public static func start(
        configuration: PeerConfiguration,
        host: String = "127.0.0.1",
        port: Int = 0,
        pcapPath: String? = nil,
        mistakes: Set<CodecMistake> = [],
        logger: Logger = Logger(label: "decaf.peer"),
        threads: Int = System.coreCount,
        clock: @escaping @Sendable () -> UInt32,
        onDelivery: (@Sendable (FrameHeader) -> Void)? = nil
    ) async throws -> PeerServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        do {
            let pcap = try pcapPath.map { path throws(PeerServerError) in
                do throws(PcapFile.Problem) {
                    return try PcapFile.open(path: path) { error in logger.error("writing the pcap file failed", metadata: ["error": "\(error)"]) }
                } catch {
                    throw .cannotRecord(error)
                }
            }
            let counters = NIOLockedValueBox(PeerStatistics())
            // One memory of repeats for every connection: a message resent after a reconnect is a
            // repeat too (REPLAY-1).
            let replay = NIOLockedValueBox(configuration.makeReplayMemory())
            let highWaterMark = max(configuration.outboundHighWaterMark, 2)
            var bootstrap = ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.writeBufferWaterMark, value: .init(low: highWaterMark / 2, high: highWaterMark))
            if !closesOnStreamEnd(configuration) {
                bootstrap = bootstrap.childChannelOption(.allowRemoteHalfClosure, value: true)
            }
            if let size = configuration.socketSendBufferSize {
                bootstrap = bootstrap.childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(size))
            }
            let channel: Channel
            do {
                channel = try await bootstrap
                    .childChannelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            var logger = logger
                            logger[metadataKey: "client"] = "\(channel.remoteAddress.map { "\($0)" } ?? "?")"
                            let admitted = counters.withLockedValue { counters in
                                guard counters.connectionsOpen < configuration.maxConnections else {
                                    counters.connectionsRefused += 1
                                    return false
                                }
                                counters.connectionsOpen += 1
                                counters.connectionsAccepted += 1
                                return true
                            }
                            guard admitted else {
                                logger.warning("connection refused: \(configuration.maxConnections) connections already open")
                                channel.close(promise: nil)
                                return
                            }
                            channel.closeFuture.whenComplete { _ in counters.withLockedValue { $0.connectionsOpen -= 1 } }
                            try addHandlers(to: channel, configuration: configuration, mistakes: mistakes, pcap: pcap, logger: logger, statistics: counters,
                                            replay: replay, clock: clock, onDelivery: onDelivery)
                        }
                    }
                    .bind(host: host, port: port)
                    .get()
            } catch {
                try? await pcap?.close()
                throw PeerServerError.cannotListen(host: host, port: port, reason: ConnectionFailure.reason(error))
            }
            return try PeerServer(channel: channel, group: group, pcap: pcap, counters: counters)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Adds a connection's handlers to `channel`: a socket's, or one in memory (`SimulatedServerCase`).
    static func addHandlers(
        to channel: Channel, configuration: PeerConfiguration, mistakes: Set<CodecMistake>, pcap: NIOWritePCAPHandler.SynchronizedFileSink?,
        logger: Logger, statistics: NIOLockedValueBox<PeerStatistics>, replay: NIOLockedValueBox<ReplayMemory>,
        clock: @escaping @Sendable () -> UInt32, onDelivery: (@Sendable (FrameHeader) -> Void)?
    ) throws {
        let pipeline = channel.pipeline.syncOperations
        if let pcap { try pipeline.addHandler(NIOWritePCAPHandler(mode: .server, fileSink: pcap.write)) }
        if !configuration.has(.noIdleTimeout) { try pipeline.addHandler(IdleTimeoutHandler(timeout: TimeAmount(configuration.idleTimeout))) }
        if !closesOnStreamEnd(configuration) { try pipeline.addHandler(StreamEndBlindness()) }
        if configuration.has(.crcLittleEndian) { try pipeline.addHandler(ChecksumByteSwapHandler()) }
        if mistakes.isEmpty {
            try pipeline.addHandler(ByteToMessageHandler(FrameDecoderHandler(options: configuration.decodeOptions, now: clock, refusesFromHeader: configuration.refusesFromHeader,
                                                                                    judgesHeaderWhole: configuration.choices.contains(.wholeHeader))))
        } else {
            try pipeline.addHandler(ByteToMessageHandler(MistakenFrameDecoderHandler(mistakes: mistakes, options: configuration.decodeOptions, now: clock)))
        }
        try pipeline.addHandler(MessageToByteHandler(FrameEncoderHandler()))
        try pipeline.addHandler(PeerConnectionHandler(configuration: configuration, logger: logger, statistics: statistics, replay: replay, clock: clock,
                                                             onDelivery: onDelivery))
    }

    /// Whether a connection closes when the client ends its stream, as a socket that does not
    /// allow half-closure does; under `ignores-stream-end` it stays open, and the end goes unseen.
    static func closesOnStreamEnd(_ configuration: PeerConfiguration) -> Bool {
        !configuration.has(.ignoresStreamEnd)
    }

    /// Stops accepting, closes every connection (each logs its summary), and finishes the pcap file.
    /// Calling it again does nothing.
    public func shutdown() async throws {
        let first = stopped.withLockedValue { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        try? await channel.close()
        try await group.shutdownGracefully()
        try await pcap?.close()
    }
}

/// Why the peer could not start, in the user's words.
public enum PeerServerError: Error, CustomStringConvertible {
    case noLocalAddress
    case cannotListen(host: String, port: Int, reason: String)
    case cannotRecord(PcapFile.Problem)

    public var description: String {
        switch self {
        case .noLocalAddress:
            "the listening socket has no local address"
        case let .cannotListen(host, port, reason):
            "cannot listen on \(HostAndPort(host: host, port: port)): \(reason)"
                + (port == 0 ? "" : "; is another server listening there? A port of 0 picks a free one")
        case let .cannotRecord(problem):
            problem.description
        }
    }
}
