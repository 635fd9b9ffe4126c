import DecafNIO
import Foundation
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
        // Port 1 is below the ephemeral range: no other test's listener or connection can take it
        // (a closed server's port could be bound again by a test running beside this one).
        let proxy = try await ProxyServer.start(host: "127.0.0.1", port: 0, upstream: HostAndPort(host: "127.0.0.1", port: 1), toxics: ProxyToxics(), seed: 1)
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

extension ProxyLoopbackTests {
    @Test("--pcap records both legs: what the client sent and got, and what the proxy passed on, each once")
    func pcap() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "decaf-proxy-\(UUID()).pcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await Self.echoServer()
        let proxy = try await ProxyServer.start(host: "127.0.0.1", port: 0, upstream: HostAndPort(host: "127.0.0.1", port: server.localAddress!.port!),
                                                toxics: ProxyToxics(downstream: [.limitData(4)]), seed: 1, pcapPath: path)
        let client = try await RawClient.connect(port: proxy.localAddress.port!)
        client.send("recorded")
        #expect(try await client.untilClosed() == Array("reco".utf8))
        try await proxy.shutdown()
        try await server.close()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.prefix(4) == Data([0xD4, 0xC3, 0xB2, 0xA1]), "pcap magic, little-endian")
        func count(_ text: String) -> Int { bytes.ranges(of: Data(text.utf8)).count }
        #expect(count("recorded") == 3, "client to proxy, proxy to server, the echo back to the proxy")
        #expect(count("reco") == 4, "and the four bytes the limit let through to the client")
    }

    @Test("a pcap file that cannot be written is refused before the proxy listens")
    func pcapUnwritable() async throws {
        await #expect {
            try await ProxyServer.start(host: "127.0.0.1", port: 0, upstream: HostAndPort(host: "127.0.0.1", port: 9), toxics: ProxyToxics(), seed: 1,
                                        pcapPath: "/nonexistent-dir/x.pcap")
        } throws: { error in
            "\(error)" == "cannot write the pcap file /nonexistent-dir/x.pcap: no such file or directory"
        }
    }
}

extension ProxyLoopbackTests {
    /// toxiproxy's reset_peer tests (toxics/reset_peer_test.go): a client writes, then reads, and
    /// its read fails with "connection reset by peer", upstream or downstream, with a timeout or
    /// without; the reset comes the timeout after the bytes.
    @Test("reset_peer: the client that writes then reads gets a reset, after the timeout, on either stream", arguments: [
        (ProxyStream.upstream, Duration.zero), (.upstream, .milliseconds(100)), (.downstream, .milliseconds(100)),
    ])
    func resetPeer(_ stream: ProxyStream, _ timeout: Duration) async throws {
        let server = try await Self.echoServer()
        let proxy = try await Self.proxy(to: server, stream == .upstream ? ProxyToxics(upstream: [.resetPeer(timeout)]) : ProxyToxics(downstream: [.resetPeer(timeout)]))
        let client = try await RawClient.connect(port: proxy.localAddress.port!)
        let sent = ContinuousClock.now
        client.send("reset toxic payload\n")
        #expect(try await client.wasReset(), "a reset, not a FIN")
        #expect(ContinuousClock.now - sent >= timeout)
        #expect(proxy.counts.cut == 1)
        try await proxy.shutdown()
        try await server.close()
    }

    /// toxiproxy's timeout toxic: it holds everything back, and when it is taken away the
    /// connection it held is closed (its cleanup).
    @Test("a timeout toxic taken away closes the connection it held")
    func timeoutRemoved() async throws {
        let server = try await Self.echoServer()
        let proxy = try await Self.proxy(to: server, ProxyToxics(downstream: [.timeout(.zero)]))
        let client = try await RawClient.connect(port: proxy.localAddress.port!)
        client.send("held")
        // The echo has reached the proxy and been held back: the toxic acts on this connection.
        let deadline = ContinuousClock.now + .seconds(20)
        while proxy.counts.downstream.bytesIn < 4 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(proxy.counts.downstream.bytesIn == 4)
        try await proxy.changeToxics { $0 = ProxyToxics() }.get()
        #expect(try await client.untilClosed() == [], "nothing got through; then the close")
        try await proxy.shutdown()
        try await server.close()
    }
}
