import DecafSession
import DecafWire
import Testing

/// Each toxic on one direction, with the time given and a fixed seed: what comes out, and when.
@Suite("toxic pipe")
struct ToxicPipeTests {
    static let chunk = Array("hello, world".utf8)

    @Test("no toxics: bytes and the end of the stream pass at once")
    func clear() {
        var pipe = ToxicPipe(toxics: [], seed: 1)
        #expect(pipe.opened(at: .zero).isEmpty)
        #expect(pipe.received(Self.chunk, at: .milliseconds(5)) == [.bytes(Self.chunk, at: .milliseconds(5))])
        #expect(pipe.ended(at: .milliseconds(6)) == [.end(at: .milliseconds(6))])
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
        var never = ToxicPipe(toxics: [.timeout(.zero)], seed: 1)
        #expect(never.opened(at: .zero) == [])
        var blackhole = ToxicPipe(toxics: [.blackhole], seed: 1)
        #expect(blackhole.opened(at: .zero) == [])
        #expect(blackhole.received(Self.chunk, at: .zero) == [])
    }

    @Test("reset_peer drops the first bytes and resets its time after they came, as toxiproxy's; slow_close delays the end of the stream")
    func resetAndSlowClose() {
        var pipe = ToxicPipe(toxics: [.resetPeer(.seconds(30))], seed: 1)
        #expect(pipe.opened(at: .zero) == [], "an idle connection is never reset")
        #expect(pipe.received(Self.chunk, at: .seconds(1)) == [.reset(at: .seconds(31))])
        #expect(pipe.received(Self.chunk, at: .seconds(2)) == [], "what comes after is dropped too")
        var slow = ToxicPipe(toxics: [.slowClose(.seconds(2))], seed: 1)
        #expect(slow.received(Self.chunk, at: .seconds(1)) == [.bytes(Self.chunk, at: .seconds(1))])
        #expect(slow.ended(at: .seconds(3)) == [.end(at: .seconds(5))])
    }

    @Test("toxiproxy's zeros: bandwidth 0 and a slicer of size 0 pass chunks whole and at once; noop does nothing")
    func zeros() {
        var pipe = ToxicPipe(toxics: [.bandwidth(bytesPerSecond: 0), .slicer(averageSize: 0, sizeVariation: 0, delay: .seconds(1)), .noop], seed: 1)
        #expect(pipe.received(Self.chunk, at: .seconds(1)) == [.bytes(Self.chunk, at: .seconds(1))])
    }

    @Test("a timeout toxic taken away closes the connection it held, as toxiproxy's cleanup does; other toxics taken away do not")
    func timeoutRemoved() {
        var held = ToxicPipe(toxics: [.timeout(.zero)], seed: 1)
        #expect(held.received(Self.chunk, at: .zero) == [])
        #expect(held.replace(with: [], at: .seconds(2)) == [.close(at: .seconds(2))])
        var latency = ToxicPipe(toxics: [.latency(.seconds(1), jitter: .zero)], seed: 1)
        #expect(latency.replace(with: [], at: .seconds(2)) == [])
    }

    @Test("packet_loss: a lost chunk waits a retransmission timeout, doubled per loss in a row, and holds up the ones behind it")
    func packetLoss() {
        var never = ToxicPipe(toxics: [.packetLoss(probability: 0, retransmissionTimeout: .milliseconds(200))], seed: 1)
        #expect(never.received(Self.chunk, at: .seconds(1)) == [.bytes(Self.chunk, at: .seconds(1))])
        var always = ToxicPipe(toxics: [.packetLoss(probability: 1, retransmissionTimeout: .milliseconds(200))], seed: 1)
        #expect(always.received(Self.chunk, at: .zero) == [.bytes(Self.chunk, at: .milliseconds(200 * 255))])
        var often = ToxicPipe(toxics: [.packetLoss(probability: 0.3, retransmissionTimeout: .milliseconds(200))], seed: 42)
        var delayed = 0, last = Duration.zero
        for step in 0..<10_000 {
            let now = Duration.seconds(step * 100)
            let at = often.received(Self.chunk, at: now)[0].at
            #expect(at >= last)
            if at > now { delayed += 1 }
            last = at
        }
        #expect((2_700...3_300).contains(delayed), "\(delayed) of 10,000 chunks lost at 30%")
    }

    /// A DATA frame and an ACK, encoded.
    static func frame(_ type: MessageType, _ counter: UInt32) -> [UInt8] {
        var encoder = FrameEncoder()
        let header = FrameHeader(messageType: type, sequence: SequenceNumber(category: .normal, counter: counter), timestamp: 1_700_000_000,
                                 sessionID: SessionID(rawValue: 0x444C))
        return encoder.encode(header, fields: type == .data ? [TLVField(tag: .text, text: "hello \(counter)")] : [])
    }

    @Test("frame toxics see whole frames however the bytes come, and only the types chosen")
    func dropOnlyAcks() {
        let stream = (1...50).flatMap { [Self.frame(.data, UInt32($0)), Self.frame(.ack, UInt32($0))] }.flatMap { $0 }
        var pipe = ToxicPipe(toxics: [.dropFrames(probability: 1, types: [.ack])], seed: 1)
        var out: [UInt8] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 7)
            for case let .bytes(bytes, _) in pipe.received(Array(stream[offset..<end]), at: .zero) { out += bytes }
            offset = end
        }
        #expect(out == (1...50).flatMap { Self.frame(.data, UInt32($0)) })
        #expect(pipe.frames.seen == 100 && pipe.frames.dropped == 50)
    }

    @Test("duplicate, corrupt and cut: twice the frame; a checksum mismatch; half a frame, then the close")
    func frameDamage() throws {
        let frame = Self.frame(.data, 1)
        var twice = ToxicPipe(toxics: [.duplicateFrames(probability: 1)], seed: 1)
        #expect(twice.received(frame, at: .zero) == [.bytes(frame, at: .zero), .bytes(frame, at: .zero)])
        var corrupt = ToxicPipe(toxics: [.corruptFrames(probability: 1)], seed: 1)
        guard case let .bytes(damaged, _) = try #require(corrupt.received(frame, at: .zero).first) else { Issue.record("no bytes"); return }
        var decoder = FrameDecoder()
        decoder.append(damaged)
        #expect(throws: WireError.self) { _ = try decoder.nextFrame() }
        var cut = ToxicPipe(toxics: [.cutFrames(probability: 1)], seed: 1)
        #expect(cut.received(frame, at: .zero) == [.bytes(Array(frame.prefix(frame.count / 2)), at: .zero), .close(at: .zero)])
    }

    @Test("a stream that is not Decaf frames passes untouched by frame toxics")
    func notFrames() {
        var pipe = ToxicPipe(toxics: [.dropFrames(probability: 1, types: nil)], seed: 1)
        let http = Array("GET / HTTP/1.1\r\nHost: decaf.example\r\n\r\n".utf8)
        #expect(pipe.received(http, at: .zero) == [.bytes(http, at: .zero)])
        #expect(pipe.received(Self.frame(.data, 1), at: .zero) == [.bytes(Self.frame(.data, 1), at: .zero)])
    }

    @Test("toxics replaced on a live connection: a toxic that stays keeps its state, a new one never lets bytes overtake earlier ones")
    func replaced() {
        var pipe = ToxicPipe(toxics: [.latency(.seconds(1), jitter: .zero), .limitData(20)], seed: 1)
        #expect(pipe.received(Self.chunk, at: .zero) == [.bytes(Self.chunk, at: .seconds(1))])
        #expect(pipe.replace(with: [ActiveToxic(.limitData(20))], at: .milliseconds(10)).isEmpty)
        #expect(pipe.received(Self.chunk, at: .milliseconds(20)) == [.bytes(Array(Self.chunk.prefix(8)), at: .seconds(1)), .close(at: .seconds(1))],
                "the latency gone, the next bytes still wait behind the earlier ones, and limit_data still counts the first 12")
        var timed = ToxicPipe(toxics: [], seed: 1)
        #expect(timed.replace(with: [ActiveToxic(.timeout(.seconds(2))), ActiveToxic(.resetPeer(.seconds(5)))], at: .seconds(3))
            == [.close(at: .seconds(5))], "a new toxic's timer starts when it is added")
        var blackhole = ToxicPipe(toxics: [], seed: 1)
        _ = blackhole.replace(with: [ActiveToxic(.blackhole)], at: .zero)
        #expect(blackhole.received(Self.chunk, at: .zero).isEmpty)
        _ = blackhole.replace(with: [], at: .seconds(1))
        #expect(blackhole.received(Self.chunk, at: .seconds(1)) == [.bytes(Self.chunk, at: .seconds(1))])
    }

    @Test("toxicity: the share of chunks or frames a toxic acts on, drawn for each one")
    func toxicity() {
        var never = ToxicPipe(applying: [ActiveToxic(.blackhole, toxicity: 0)], seed: 1)
        #expect(never.received(Self.chunk, at: .zero) == [.bytes(Self.chunk, at: .zero)])
        var half = ToxicPipe(applying: [ActiveToxic(.dropFrames(probability: 1, types: nil), toxicity: 0.5)], seed: 9)
        let frames = (1...2000).flatMap { Self.frame(.data, UInt32($0)) }
        _ = half.received(frames, at: .zero)
        #expect(half.frames.seen == 2000)
        #expect((900...1100).contains(half.frames.dropped), "\(half.frames.dropped) of 2,000 frames dropped at toxicity 0.5")
        #expect(ActiveToxic(.blackhole, toxicity: .nan).toxicity == 1 && ActiveToxic(.blackhole, toxicity: 7).toxicity == 1)
    }

    @Test("a frame toxic added in the middle of a frame lets the rest of it pass and acts from the next frame on")
    func joinedMidway() {
        let first = Self.frame(.data, 1), second = Self.frame(.data, 2), third = Self.frame(.ack, 3)
        var pipe = ToxicPipe(toxics: [], seed: 1)
        #expect(pipe.received(Array(first.prefix(10)), at: .zero) == [.bytes(Array(first.prefix(10)), at: .zero)])
        _ = pipe.replace(with: [ActiveToxic(.dropFrames(probability: 1, types: [.data]))], at: .zero)
        var out: [UInt8] = []
        for byte in Array(first.dropFirst(10)) + second + third {
            for case let .bytes(bytes, _) in pipe.received([byte], at: .zero) { out += bytes }
        }
        #expect(out == Array(first.dropFirst(10)) + third)
        #expect(pipe.frames.seen == 2 && pipe.frames.dropped == 1)
    }

    @Test("down acts on connections, not bytes: bytes on an open connection pass")
    func down() {
        var pipe = ToxicPipe(toxics: [.down], seed: 1)
        #expect(pipe.opened(at: .zero).isEmpty)
        #expect(pipe.received(Self.chunk, at: .zero) == [.bytes(Self.chunk, at: .zero)])
    }
}
