import DecafProxy
import Testing

/// Each toxic on one direction, with the time given and a fixed seed: what comes out, and when.
@Suite("toxic pipe")
struct ToxicPipeTests {
    static let chunk = Array("hello, world".utf8)

    @Test("no toxics: bytes and the close pass at once")
    func clear() {
        var pipe = ToxicPipe(toxics: [], seed: 1)
        #expect(pipe.opened(at: .zero).isEmpty)
        #expect(pipe.received(Self.chunk, at: .milliseconds(5)) == [.bytes(Self.chunk, at: .milliseconds(5))])
        #expect(pipe.ended(at: .milliseconds(6)) == [.close(at: .milliseconds(6))])
    }

    @Test("latency delays every chunk within its jitter, never reorders, and the close follows the data")
    func latency() {
        var pipe = ToxicPipe(toxics: [.latency(.milliseconds(200), jitter: .milliseconds(100))], seed: 7)
        var last = Duration.zero
        for step in 0..<200 {
            let now = Duration.milliseconds(step)
            let out = pipe.received(Self.chunk, at: now)
            #expect(out.count == 1)
            let at = out[0].at
            #expect(at >= last, "chunk \(step) overtook the one before")
            #expect(at <= now + .milliseconds(300))
            #expect(at >= now + .milliseconds(100) || at == last)
            last = at
        }
        #expect(pipe.ended(at: .milliseconds(200))[0].at >= last)
        var again = ToxicPipe(toxics: [.latency(.milliseconds(200), jitter: .milliseconds(100))], seed: 7)
        var replay = ToxicPipe(toxics: [.latency(.milliseconds(200), jitter: .milliseconds(100))], seed: 7)
        #expect(again.received(Self.chunk, at: .zero) == replay.received(Self.chunk, at: .zero), "the same seed gives the same delays")
    }

    @Test("bandwidth lets through at most its rate: 10 KiB at 1 KiB/s takes 10 seconds")
    func bandwidth() {
        var pipe = ToxicPipe(toxics: [.bandwidth(bytesPerSecond: 1024)], seed: 1)
        var last = Duration.zero
        for _ in 0..<10 { last = pipe.received([UInt8](repeating: 0, count: 1024), at: .zero)[0].at }
        #expect(last == .seconds(10))
        #expect(pipe.received([0], at: .seconds(20))[0].at > .seconds(20))
    }

    @Test("slicer cuts a chunk into slices of about the average size, a delay apart, in order")
    func slicer() {
        var pipe = ToxicPipe(toxics: [.slicer(averageSize: 10, sizeVariation: 4, delay: .milliseconds(1))], seed: 3)
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        let out = pipe.received(bytes, at: .zero)
        var joined: [UInt8] = []
        for (index, passage) in out.enumerated() {
            guard case let .bytes(slice, at) = passage else { Issue.record("not bytes: \(passage)"); continue }
            #expect((1...14).contains(slice.count))
            #expect(at == .milliseconds(index))
            joined += slice
        }
        #expect(joined == bytes)
    }

    @Test("limit_data lets the limit through, then closes and lets nothing more")
    func limitData() {
        var pipe = ToxicPipe(toxics: [.limitData(15)], seed: 1)
        #expect(pipe.received(Self.chunk, at: .zero) == [.bytes(Self.chunk, at: .zero)])
        #expect(pipe.received(Self.chunk, at: .seconds(1)) == [.bytes(Array(Self.chunk.prefix(3)), at: .seconds(1)), .close(at: .seconds(1))])
        #expect(pipe.received(Self.chunk, at: .seconds(2)) == [])
    }

    @Test("timeout drops everything and closes after its time; zero never closes; blackhole drops and stays open")
    func timeoutAndBlackhole() {
        var timeout = ToxicPipe(toxics: [.timeout(.seconds(5))], seed: 1)
        #expect(timeout.opened(at: .seconds(1)) == [.close(at: .seconds(6))])
        #expect(timeout.received(Self.chunk, at: .seconds(2)) == [])
        #expect(ToxicPipe(toxics: [.timeout(.zero)], seed: 1).opened(at: .zero) == [])
        var blackhole = ToxicPipe(toxics: [.blackhole], seed: 1)
        #expect(blackhole.opened(at: .zero) == [])
        #expect(blackhole.received(Self.chunk, at: .zero) == [])
    }

    @Test("reset_peer resets the connection its time after it opened; slow_close delays the close")
    func resetAndSlowClose() {
        var pipe = ToxicPipe(toxics: [.slowClose(.seconds(2)), .resetPeer(.seconds(30))], seed: 1)
        #expect(pipe.opened(at: .zero) == [.reset(at: .seconds(30))])
        #expect(pipe.received(Self.chunk, at: .seconds(1)) == [.bytes(Self.chunk, at: .seconds(1))])
        #expect(pipe.ended(at: .seconds(3)) == [.close(at: .seconds(5))])
    }
}
