import DecafNIO
import DecafProxy
import DecafSession
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

/// The proxy on loopback between a raw client and an echo server.
@Suite("proxy on loopback", .timeLimit(.minutes(2)))
struct ProxyLoopbackTests {
    static let group = MultiThreadedEventLoopGroup.singleton

    /// An upstream server that sends back what it reads.
    static func echoServer() async throws -> Channel {
        try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Echo()) } }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    static func proxy(to server: Channel, _ toxics: ProxyToxics = ProxyToxics()) async throws -> ProxyServer {
        try await ProxyServer.start(host: "127.0.0.1", port: 0, upstream: HostAndPort(host: "127.0.0.1", port: server.localAddress!.port!), toxics: toxics, seed: 1)
    }

    @Test("bytes go through both ways; latency on the way up delays the echo by at least its time")
    func latency() async throws {
        let server = try await Self.echoServer()
        let proxy = try await Self.proxy(to: server, ProxyToxics(upstream: [.latency(.milliseconds(150), jitter: .zero)]))
        let client = try await RawClient.connect(port: proxy.localAddress.port!)
        let started = ContinuousClock.now
        client.send("ping")
        let echoed = await client.received(count: 4)
        #expect(echoed == Array("ping".utf8))
        #expect(ContinuousClock.now - started >= .milliseconds(150))
        client.close()
        try await proxy.shutdown()
        #expect(proxy.counts.upstream.bytesIn == 4 && proxy.counts.downstream.bytesOut == 4)
        try await server.close()
    }

    @Test("limit_data downstream: the client gets that many bytes, then the close")
    func limitData() async throws {
        let server = try await Self.echoServer()
        let proxy = try await Self.proxy(to: server, ProxyToxics(downstream: [.limitData(6)]))
        let client = try await RawClient.connect(port: proxy.localAddress.port!)
        client.send("abcdefghij")
        #expect(try await client.untilClosed() == Array("abcdef".utf8))
        try await proxy.shutdown()
        #expect(proxy.counts.cut == 1)
        try await server.close()
    }

    @Test("an upstream that cannot be reached closes its client; the proxy goes on accepting")
    func unreachableUpstream() async throws {
        let gone = try await Self.echoServer()
        let proxy = try await Self.proxy(to: gone)
        try await gone.close()
        for _ in 0..<2 {
            let client = try await RawClient.connect(port: proxy.localAddress.port!)
            #expect(try await client.untilClosed() == [])
        }
        try await proxy.shutdown()
        #expect(proxy.counts.upstreamFailures == 2)
    }
}

extension ProxyLoopbackTests {
    @Test("toxics change while a connection lives: down resets only new connections, a blackhole stops bytes at once, a reset ends the rest")
    func liveChanges() async throws {
        let server = try await Self.echoServer()
        let proxy = try await Self.proxy(to: server)
        let client = try await RawClient.connect(port: proxy.localAddress.port!)
        client.send("one")
        #expect(await client.received(count: 3) == Array("one".utf8))
        proxy.changeToxics { $0.add(.down, stream: .upstream) }
        // The reset may come before the connect completes on a busy machine: then the connect fails.
        if let refused = try? await RawClient.connect(port: proxy.localAddress.port!) {
            #expect(try await refused.untilClosed() == [], "a new connection is reset while the network is down")
        }
        client.send("two")
        #expect(await client.received(count: 6) == Array("onetwo".utf8), "an open connection is left as it is")
        proxy.changeToxics { $0 = ProxyToxics(downstream: [.blackhole]) }
        client.send("three")
        proxy.changeToxics(resettingConnections: true) { $0 = ProxyToxics() }
        #expect(try await client.untilClosed() == Array("onetwo".utf8), "the echo of 'three' fell into the blackhole; then the reset")
        let later = try await RawClient.connect(port: proxy.localAddress.port!)
        later.send("four")
        #expect(await later.received(count: 4) == Array("four".utf8), "with the toxics gone, new connections pass")
        later.close()
        try await proxy.shutdown()
        #expect(proxy.counts.refused == 1 && proxy.counts.cut == 1 && proxy.counts.connections == 3)
        try await server.close()
    }

    @Test("a timeline plays its phases in order; a phase that resets ends every open connection")
    func timeline() async throws {
        let server = try await Self.echoServer()
        let proxy = try await Self.proxy(to: server)
        let client = try await RawClient.connect(port: proxy.localAddress.port!)
        client.send("hi")
        #expect(await client.received(count: 2) == Array("hi".utf8))
        let (phases, continuation) = AsyncStream.makeStream(of: String.self)
        proxy.play(ProxyTimeline(phases: [.init(name: "calm", duration: .milliseconds(50), toxics: ProxyToxics()),
                                          .init(name: "handover", toxics: ProxyToxics(), resetsConnections: true)])) { phase in
            continuation.yield(phase.name)
            if phase.name == "handover" { continuation.finish() }
        }
        var seen: [String] = []
        for await phase in phases { seen.append(phase) }
        #expect(seen == ["calm", "handover"])
        #expect(try await client.untilClosed() == Array("hi".utf8))
        try await proxy.shutdown()
        try await server.close()
    }
}

/// Sends back what it reads.
private final class Echo: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.writeAndFlush(data, promise: nil)
    }
}

/// A client that collects the bytes it receives, for tests.
private final class RawClient: Sendable {
    private let channel: Channel
    private let collector: Collector

    private init(channel: Channel, collector: Collector) {
        self.channel = channel
        self.collector = collector
    }

    static func connect(port: Int) async throws -> RawClient {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: ProxyLoopbackTests.group)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) } }
            .connect(host: "127.0.0.1", port: port).get()
        return RawClient(channel: channel, collector: collector)
    }

    func send(_ text: String) { channel.writeAndFlush(ByteBuffer(string: text), promise: nil) }

    func close() { channel.close(promise: nil) }

    /// The first `count` bytes received, once they have come (or all there were, if the
    /// connection closed first).
    func received(count: Int) async -> [UInt8] {
        await collector.first(count)
    }

    /// Everything received once the connection closed.
    func untilClosed() async throws -> [UInt8] {
        try await channel.closeFuture.get()
        return collector.bytes
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        private struct State {
            var bytes: [UInt8] = []
            var closed = false
            var waiters: [(count: Int, continuation: CheckedContinuation<[UInt8], Never>)] = []

            /// Takes out the waiters whose bytes have come, with what each gets.
            mutating func satisfied() -> [(CheckedContinuation<[UInt8], Never>, [UInt8])] {
                let (ready, waiting) = (waiters.filter { closed || bytes.count >= $0.count }, waiters.filter { !closed && bytes.count < $0.count })
                waiters = waiting
                return ready.map { ($0.continuation, Array(bytes.prefix($0.count))) }
            }
        }

        private let state = NIOLockedValueBox(State())

        var bytes: [UInt8] { state.withLockedValue { $0.bytes } }

        /// The first `count` bytes, once they have come or the connection has closed.
        func first(_ count: Int) async -> [UInt8] {
            await withCheckedContinuation { continuation in
                let ready = state.withLockedValue { state in
                    state.waiters.append((count, continuation))
                    return state.satisfied()
                }
                for (waiter, bytes) in ready { waiter.resume(returning: bytes) }
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            let ready = state.withLockedValue { state in
                state.bytes += buffer.readableBytesView
                return state.satisfied()
            }
            for (waiter, bytes) in ready { waiter.resume(returning: bytes) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            let ready = state.withLockedValue { state in
                state.closed = true
                return state.satisfied()
            }
            for (waiter, bytes) in ready { waiter.resume(returning: bytes) }
            context.fireChannelInactive()
        }
    }
}

/// The named weak networks.
@Suite("proxy profiles")
struct ProxyProfileTests {
    @Test("subway and lift lose the published shares of frames each way, with 200-800 ms; each profile says what it is")
    func publishedFigures() {
        for (profile, loss) in [(ProxyProfile.subway, 0.3), (.lift, 0.5)] {
            #expect(profile.timeline.phases.count == 1)
            let toxics = profile.timeline.phases[0].toxics
            #expect(toxics.on(.upstream) == toxics.on(.downstream))
            #expect(toxics.on(.upstream).map(\.toxic) == [.dropFrames(probability: loss, types: nil), .latency(.milliseconds(500), jitter: .milliseconds(300))])
        }
        #expect(ProxyProfile.allCases.allSatisfy { !$0.summary.isEmpty && $0.timeline.phases.allSatisfy { !$0.toxics.on(.upstream).isEmpty } })
    }

    @Test("handover: Wi-Fi, a blackhole, every connection reset onto cellular, a blackhole, reset back, over and over")
    func handover() {
        let timeline = ProxyProfile.handover.timeline
        #expect(timeline.repeats)
        #expect(timeline.phases.map(\.name) == ["wifi", "lost", "cellular", "lost"])
        #expect(timeline.phases.map(\.resetsConnections) == [true, false, true, false])
        #expect(timeline.phases.allSatisfy { $0.duration != nil })
        #expect(timeline.phases[1].toxics.on(.upstream).map(\.toxic) == [.blackhole])
        #expect(timeline.phases[1].toxics.on(.downstream).map(\.toxic) == [.blackhole])
    }
}
