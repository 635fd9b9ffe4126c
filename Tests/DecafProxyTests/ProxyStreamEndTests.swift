import DecafNIO
import DecafProxy
import DecafSession
import NIOCore
import Testing

/// The end of a stream through the proxy: what a side sends before its FIN or its close reaches
/// the other side, every byte in order, and then the FIN; after a half-close the other direction
/// goes on. Through every toxic that delivers every byte, in both directions.
@Suite("proxy: the end of a stream", .timeLimit(.minutes(2)))
struct ProxyStreamEndTests {
    /// Each toxic that promises every byte, with settings that keep a case short.
    static let lossless: [Toxic?] = [
        nil,
        .latency(.milliseconds(30), jitter: .milliseconds(20)),
        .bandwidth(bytesPerSecond: 20_000_000),
        .slicer(averageSize: 1500, sizeVariation: 500, delay: .microseconds(50)),
        .slowClose(.milliseconds(100)),
        .packetLoss(probability: 0.2, retransmissionTimeout: .milliseconds(5)),
        .noop,
    ]

    /// What one side sends before it ends its stream: a request's worth, and half a megabyte.
    static let sizes = [18, 500_000]

    struct Case: Sendable, CustomTestStringConvertible {
        var toxic: Toxic?
        var clientOpens: Bool
        var closing: StreamEnd.Closing
        var size: Int

        var testDescription: String {
            "\(toxic.map { ToxicCatalog.type(of: $0) } ?? "no toxic"), \(clientOpens ? "client" : "server") sends \(size) bytes and \(closing == .half ? "half-closes" : "closes")"
        }
    }

    static let cases: [Case] = lossless.flatMap { toxic in
        [true, false].flatMap { clientOpens in
            StreamEnd.Closing.allCases.flatMap { closing in sizes.map { Case(toxic: toxic, clientOpens: clientOpens, closing: closing, size: $0) } }
        }
    }

    @Test("the toxics that promise every byte are all here (down acts only on new connections)")
    func everyLosslessToxic() {
        let types = Set(Self.lossless.compactMap { $0.map(ToxicCatalog.type(of:)) })
        let promising = ToxicCatalog.types.filter { type in
            let toxic = Self.example(of: type)
            return toxic.deliversEveryByte && toxic != .down
        }
        #expect(types == Set(promising))
    }

    @Test("every byte before the FIN, in order, then the FIN; after a half-close the answer comes back the same way", arguments: cases)
    func bytesThenEnd(_ given: Case) async throws {
        let sent = (0..<given.size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let answer = Array("answered after the end".utf8)
        let opener = StreamEnd(opening: sent, closing: given.closing)
        let other = StreamEnd(answer: answer)
        let server = try await StreamEnd.listen(given.clientOpens ? other : opener)
        let toxics = ProxyToxics(upstream: given.toxic.map { [$0] } ?? [], downstream: given.toxic.map { [$0] } ?? [])
        let proxy = try await ProxyServer.start(host: "127.0.0.1", port: 0, upstream: HostAndPort(host: "127.0.0.1", port: server.localAddress!.port!),
                                                toxics: toxics, seed: 5)
        let client = try await StreamEnd.connect(given.clientOpens ? opener : other, port: proxy.localAddress.port!)
        // Each wait has a deadline, so a case that waits in vain says where, and what the proxy had passed.
        let (received, ended) = await other.received()
        try #require(ended, "the receiving end got \(received.bytes.count) of \(sent.count) bytes and no end within 30 s; proxy: \(proxy.counts)")
        #expect(received.bytes.count == sent.count, "bytes lost before the end")
        #expect(received.bytes == sent, "every byte, in order")
        #expect(received.finished, "the end came as a FIN, after the last byte")
        if given.closing == .half {
            let (back, backEnded) = await opener.received()
            try #require(backEnded, "after its half-close the opening end got \(back.bytes.count) bytes of the answer and no end within 30 s; proxy: \(proxy.counts)")
            #expect(back.bytes == answer && back.finished, "the other direction goes on after a half-close")
        }
        let closed = client.eventLoop.makePromise(of: Void.self)
        client.closeFuture.cascade(to: closed)
        let deadline = client.eventLoop.scheduleTask(in: .seconds(30)) { closed.fail(ChannelError.ioOnClosedChannel) }
        closed.futureResult.whenComplete { _ in deadline.cancel() }
        do {
            try await closed.futureResult.get()
        } catch {
            Issue.record("the connecting end's channel did not close within 30 s of the exchange; proxy: \(proxy.counts)")
            throw error
        }
        try await proxy.shutdown()
        let counts = proxy.counts
        let direction = given.clientOpens ? counts.upstream : counts.downstream
        #expect(direction.bytesIn == sent.count && direction.bytesOut == sent.count)
        try await server.close()
    }

    /// A toxic of `type`: as `lossless` has it, or with its main attribute 1.
    static func example(of type: String) -> Toxic {
        if let listed = lossless.compactMap({ $0 }).first(where: { ToxicCatalog.type(of: $0) == type }) { return listed }
        let attributes = ToxicCatalog.mainAttribute[type].map { [$0: "1"] } ?? [:]
        return try! ToxicCatalog.toxic(type: type, attributes: attributes, bareUnit: 1)
    }
}
