import DecafConformance
import DecafDiagnosis
import DecafNIO
import DecafSession
import DecafWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

/// One server case judged against the reference peer in memory: the peer's own channel pipeline
/// (`PeerServer`'s handlers: the idle timer, the frame decoder, the session, the encoder and the
/// fault handlers) on an `EmbeddedChannel`, read as `WireClient` reads a server (the same
/// `FrameDecoderHandler` with the observer's options), and the case's `ServerJudge` driven as
/// `ServerCaseDriver` drives it, on a virtual clock. What a run over loopback takes seconds of
/// waiting for (a deadline that passes, an ACK a fault delays) takes none here, and the verdict is
/// the same every time: the suite's mutation coverage (`ServerTargets`) is computed this way.
public struct SimulatedServerCase {
    /// The smallest step the virtual clock takes while the judge waits: a scheduled write (a late
    /// ACK, a read receipt) is seen at most this late, well inside `TimingTolerance.early`.
    static let tick = Duration.milliseconds(5)

    private let testCase: ConformanceCase
    private let configuration: PeerConfiguration
    private let mistakes: Set<CodecMistake>
    private let profile: ConformanceProfile
    private let timeout: Duration
    /// The UNIX time the peer's clock and the suite's both read, throughout.
    private let unixTime: UInt32

    /// `testCase` against a peer with `configuration` whose decoder makes `mistakes`, judged with
    /// `profile` and `timeout` (how long a wait for what the case expects lasts), at `unixTime`
    /// (by default the catalog's own timestamp; another time shows what the suite stamps and what
    /// it leaves, to a peer with a timestamp window).
    public init(_ testCase: ConformanceCase, against configuration: PeerConfiguration, mistakes: Set<CodecMistake> = [], profile: ConformanceProfile,
                timeout: Duration = .seconds(2), unixTime: UInt32 = CaseFrames.timestamp) {
        self.testCase = testCase
        self.configuration = configuration
        self.mistakes = mistakes
        self.profile = profile
        self.timeout = timeout
        self.unixTime = unixTime
    }

    /// The case's verdict. The target's identity is what the peer is configured to be, which a
    /// run's opening handshake learns of a peer that answers it.
    public func verdict() throws -> Verdict {
        let loop = EmbeddedEventLoop()
        let peer = EmbeddedChannel(loop: loop)
        let now = unixTime
        try PeerServer.addHandlers(to: peer, configuration: configuration, mistakes: mistakes, pcap: nil, logger: Self.silent,
                                   statistics: NIOLockedValueBox(PeerStatistics()), replay: NIOLockedValueBox(configuration.makeReplayMemory()),
                                   clock: { now }, onDelivery: nil)
        try peer.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        var connection = Connection(peer: peer, loop: loop, closesOnStreamEnd: PeerServer.closesOnStreamEnd(configuration), unixTime: now)
        defer { connection.end() }
        let target = TargetIdentity(version: configuration.version, features: configuration.features, note: "")
        var judge = ServerJudge(testCase: testCase, target: target, timeout: timeout, idleTimeout: profile.idleTimeout,
                                session: CaseFrames.session, stampsFrames: true)
        var actions = judge.start(at: connection.now)
        var deadline: Duration?
        while true {
            guard !actions.isEmpty else {
                if let event = connection.events.first {
                    connection.events.removeFirst()
                    actions = Self.take(event, by: &judge, at: connection.now)
                    continue
                }
                guard let until = deadline else {
                    return Verdict(.harnessError, "the judge of \(testCase.id) stopped without a verdict")
                }
                if connection.elapsed < until {
                    connection.advance(by: min(Self.tick, until - connection.elapsed))
                } else {
                    deadline = nil
                    actions = judge.deadlinePassed(at: connection.now)
                }
                continue
            }
            switch actions.removeFirst() {
            case let .write(bytes, _, pause):
                connection.advance(by: pause)
                if connection.write(bytes) {
                    actions += judge.wrote(at: connection.now)
                } else {
                    actions += judge.writeFailed("the connection is closed", connectionOpen: false, at: connection.now)
                }
            case let .acknowledge(bytes, _):
                _ = connection.write(bytes)
            case .endStream:
                connection.endStream()
                actions += judge.wrote(at: connection.now)
            case let .wait(until):
                deadline = until
            case let .finish(verdict):
                return verdict
            }
        }
    }

    private static func take(_ event: WireEvent, by judge: inout ServerJudge, at now: SessionTime) -> [ServerCaseAction] {
        switch event {
        case let .frame(frame): judge.received(frame, at: now)
        case let .error(error): judge.failed(error, at: now)
        case .closed: judge.closed(at: now)
        }
    }

    private static let silent: Logger = {
        var logger = Logger(label: "decaf.peer.simulated")
        logger.logLevel = .critical
        return logger
    }()

    /// The peer's channel and what the suite's client saw of it: its bytes decoded as
    /// `WireClient` decodes them, as events in order.
    private struct Connection {
        let peer: EmbeddedChannel
        let loop: EmbeddedEventLoop
        /// The client's side: the decoder `WireClient` reads a server with.
        let client = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoderHandler(options: .observer)))
        private(set) var elapsed = Duration.zero
        var events: [WireEvent] = []
        /// Whether the peer's socket closes at the end of the client's stream, or is told of it
        /// as a half-closed connection is.
        let closesOnStreamEnd: Bool
        private var failed = false
        private var closed = false
        let unixTime: UInt32

        init(peer: EmbeddedChannel, loop: EmbeddedEventLoop, closesOnStreamEnd: Bool, unixTime: UInt32) {
            self.peer = peer
            self.loop = loop
            self.closesOnStreamEnd = closesOnStreamEnd
            self.unixTime = unixTime
        }

        var now: SessionTime { SessionTime(elapsed: elapsed, unixSeconds: unixTime) }

        /// Lets `duration` pass: the peer's timers fire, and what they send is seen.
        mutating func advance(by duration: Duration) {
            guard duration > .zero else { return }
            elapsed += duration
            loop.advanceTime(by: TimeAmount(duration))
            collect()
        }

        /// Hands `bytes` to the peer; false when its connection is closed.
        mutating func write(_ bytes: [UInt8]) -> Bool {
            guard peer.isActive else { return false }
            _ = try? peer.writeInbound(peer.allocator.buffer(bytes: bytes))
            collect()
            return true
        }

        /// The end of the client's stream: the peer's connection closes, as a socket that does
        /// not allow half-closure does, or is told the input closed.
        mutating func endStream() {
            if peer.isActive {
                if closesOnStreamEnd {
                    _ = try? peer.close().wait()
                } else {
                    peer.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
                }
            }
            collect()
        }

        /// Moves what the peer wrote to the client's decoder, and notes the peer's close.
        private mutating func collect() {
            while let buffer = try? peer.readOutbound(as: ByteBuffer.self) {
                guard !failed else { continue }
                do {
                    try client.writeInbound(buffer)
                } catch let error as WireError {
                    failed = true
                    events += frames()
                    events.append(.error(error))
                } catch {}
                events += frames()
            }
            if !peer.isActive && !closed {
                closed = true
                events.append(.closed)
            }
        }

        private func frames() -> [WireEvent] {
            var frames: [WireEvent] = []
            while let frame = try? client.readInbound(as: Frame.self) { frames.append(.frame(frame)) }
            return frames
        }

        func end() {
            _ = try? client.finish()
            _ = try? peer.finish()
        }
    }
}
