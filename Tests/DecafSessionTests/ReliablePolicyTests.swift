import DecafSession
import DecafTestSupport
import DecafWire
import Testing

/// The reliable policy's additions to the brief's client, with the clock moved by hand.
@Suite("Client session: reliable policy")
struct ReliablePolicyTests {
    static func reliable() -> ClientHarness {
        ClientHarness { configuration in
            let session = configuration.session
            configuration = ClientPolicy.reliable.configuration
            configuration.session = session
        }
    }

    @Test("the brief's policy gives up after three resends; the reliable one resends until the application gives up")
    func resendsUntilDeadline() {
        var brief = ClientHarness { $0 = ClientPolicy.brief.configuration }
        brief.open()
        _ = brief.submit(1)
        var failed = false
        for _ in 0..<5 {
            brief.advance(.seconds(1))
            failed = failed || brief.fire(.retransmit).events.contains { if case .failed = $0 { true } else { false } }
        }
        #expect(failed)
        var client = Self.reliable()
        client.open()
        let first = client.submit(1).data
        #expect(first.count == 1, "no copies before any loss is measured")
        for _ in 0..<20 {
            client.advance(.seconds(2))
            let resent = client.fire(.retransmit)
            #expect(!resent.events.contains { if case .failed = $0 { true } else { false } })
            #expect(resent.data.allSatisfy { $0.header.sequence == first[0].header.sequence && $0.header.timestamp == first[0].header.timestamp })
        }
        #expect(client.session.giveUp(reason: "deadline", at: client.now).events.contains(.failed(id: 1, reason: "deadline")))
    }

    @Test("the ACK timeout follows the measured round trip (RFC 6298), within its bounds")
    func adaptiveTimeout() {
        var client = Self.reliable()
        client.open()
        #expect(client.session.ackTimeout == .seconds(1), "the configured guess before any sample")
        for id in 0..<20 {
            let frame = client.submit(id).data[0]
            client.advance(.milliseconds(100))
            _ = client.session.received(Frames.ack(of: frame.header), at: client.now)
        }
        #expect(client.session.ackTimeout == .milliseconds(200), "a steady 100 ms round trip: the lower bound")
        var estimate = RoundTripEstimate(bounds: .milliseconds(200)...(.seconds(2)))
        estimate = estimate.adding(.milliseconds(400))
        #expect(estimate.smoothed == .milliseconds(400) && estimate.deviation == .milliseconds(200))
        #expect(estimate.timeout == .milliseconds(1200))
        estimate = estimate.adding(.seconds(4))
        #expect(estimate.timeout == .seconds(2), "capped")
    }

    @Test("under measured loss each DATA frame goes out in copies, same sequence and timestamp; the brief's client never copies")
    func copiesUnderLoss() {
        var client = Self.reliable()
        client.open()
        for id in 0..<8 {
            let frame = client.submit(id).data[0]
            client.advance(.seconds(1))
            let resent = client.fire(.retransmit).data
            client.advance(.milliseconds(10))
            _ = client.session.received(Frames.ack(of: frame.header), at: client.now)
            #expect(resent.allSatisfy { $0.header == frame.header })
        }
        #expect(client.session.copies == 3, "every message needed a resend: as lossy as it gets")
        let copies = client.submit(100).data
        #expect(copies.count == 3 && Set(copies.map(\.header)).count == 1)
        #expect(client.session.statistics.copies >= 2)
        var brief = ClientHarness()
        brief.open()
        for id in 0..<8 {
            _ = brief.submit(id)
            brief.advance(.seconds(1))
            _ = brief.fire(.retransmit)
        }
        #expect(brief.session.copies == 1)
    }

    @Test("an unanswered VERSION_REQUEST is renewed with a new sequence (a repeat would get no second answer), then the connection is given up")
    func renewedHandshake() {
        var client = Self.reliable()
        let first = (client.session.start(at: client.now) + client.session.connected(at: client.now)).sent[0]
        var sequences = [first.header.sequence]
        var closed = false
        for _ in 0..<4 {
            client.advance(.seconds(1))
            let actions = client.fire(.retransmit)
            sequences += actions.sent.map(\.header.sequence)
            closed = closed || actions.closes
        }
        #expect(Set(sequences).count == 4, "four distinct requests: \(sequences)")
        #expect(closed, "after four unanswered requests the connection is closed and another tried")
        var brief = ClientHarness()
        _ = brief.session.start(at: brief.now) + brief.session.connected(at: brief.now)
        brief.advance(.milliseconds(500))
        #expect(brief.fire(.retransmit).sent.map(\.header.sequence) == [first.header.sequence], "the brief's client repeats the same request")
    }
}
