import DecafNIO
import DecafSession
import DecafPeer
import DecafWire
import Testing

@Suite("decaf handshake", .serialized, .timeLimit(.minutes(3)))
struct HandshakeClientTests {
    static func handshake(_ peer: LoopbackPeer, features: FeatureFlags = .known, timeout: Duration = .seconds(5)) async throws -> HandshakeReport {
        try await HandshakeClient.run(host: "127.0.0.1", port: peer.server.localAddress.port!,
                                      offer: VersionRequest(version: .v1_0, features: features), timeout: timeout, now: LoopbackPeer.clock)
    }

    @Test("a handshake with the reference peer agrees on the intersection and measures the round trip")
    func success() async throws {
        try await LoopbackPeer.with({ $0.features = [.basic, .readReceipt] }) { peer in
            let report = try await Self.handshake(peer, features: [.basic, .readReceipt, .groupChat])
            #expect(report.succeeded)
            #expect(report.acknowledged)
            #expect(report.response == VersionResponse(version: .v1_0, features: [.basic, .readReceipt]))
            #expect(report.roundTrip != nil)
        }
    }

    @Test("fixed-features shows up as 0x000F")
    func fixedFeatures() async throws {
        try await LoopbackPeer.with({ $0.faults = [.fixedFeatures] }) { peer in
            let report = try await Self.handshake(peer, features: .basic)
            #expect(report.response?.features == FeatureFlags(rawValue: 0x000F))
        }
    }

    @Test("a server that ignores the request makes the handshake fail on its timeout")
    func unanswered() async throws {
        try await LoopbackPeer.with({ $0.faults = [.handshakeIgnoresShort] }) { peer in
            // Long enough for the ACK to come back on a loaded machine: the request is acknowledged,
            // only the response never comes.
            let report = try await Self.handshake(peer, timeout: .seconds(2))
            #expect(!report.succeeded && report.timedOut && report.acknowledged)
        }
    }

    @Test("a server of another major refuses the client's 1.0 header with VERSION_UNSUPPORTED: no success")
    func otherMajor() async throws {
        try await LoopbackPeer.with({ $0.version = ProtocolVersion(major: 2, minor: 0) }) { peer in
            let report = try await Self.handshake(peer)
            #expect(report.error?.code == ErrorCode.versionUnsupported.rawValue)
            #expect(report.response == nil)
            #expect(!report.succeeded)
        }
    }
}

@Suite("decaf send", .serialized, .timeLimit(.minutes(3)))
struct SendClientTests {
    static func send(_ peer: LoopbackPeer, _ change: (inout SendConfiguration) -> Void) async throws -> SendReport {
        var configuration = SendConfiguration()
        configuration.port = peer.server.localAddress.port!
        configuration.deadline = .seconds(20)
        change(&configuration)
        return try await SendClient.run(configuration, threads: 2, clock: LoopbackPeer.clock)
    }

    @Test("every message on every connection is acknowledged, with a read receipt each")
    func allAcknowledged() async throws {
        try await LoopbackPeer.with { peer in
            let report = try await Self.send(peer) {
                $0.connections = 3
                $0.count = 200
                // Nothing is lost on loopback: only an ACK later than this, on a loaded machine, would resend.
                $0.client.ackTimeout = .seconds(10)
            }
            #expect(report.succeeded)
            #expect(report.sent == 600 && report.acknowledged == 600 && report.lost == 0)
            #expect(report.readReceipts == 600)
            #expect(report.duplicateAcks == 0 && report.retransmissions == 0)
            #expect(report.latency?.count == 600)
            #expect(report.negotiated.count == 3)
        }
    }

    @Test("an ACK that comes late makes the client resend with the same sequence; the peer delivers once (EX-7, REPLAY-1)")
    func retransmission() async throws {
        try await LoopbackPeer.with({ $0.faults = [.slowAck(delay: .milliseconds(250))] }) { peer in
            let report = try await Self.send(peer) {
                $0.count = 20
                $0.client.ackTimeout = .milliseconds(100)
                $0.client.features = .basic
            }
            #expect(report.succeeded)
            #expect(report.retransmissions > 0)
            try await peer.stop()
            #expect(peer.server.statistics.repeats > 0, "resent copies carry the original sequence and timestamp")
            #expect(peer.server.statistics.framesDelivered == 20)
        }
    }

    @Test("a message whose ACK never comes in time is reported lost after its retries")
    func lost() async throws {
        try await LoopbackPeer.with({ $0.faults = [.slowAck(delay: .milliseconds(5000))] }) { peer in
            let report = try await Self.send(peer) {
                $0.count = 5
                $0.client.ackTimeout = .milliseconds(50)
                $0.client.retries = 2
            }
            #expect(!report.succeeded)
            #expect(report.lost == 5 && report.acknowledged == 0)
            #expect(report.retransmissions == 10)
        }
    }

    @Test("a dropped connection is reopened after a backoff, the handshake repeated and the rest sent")
    func reconnect() async throws {
        try await LoopbackPeer.with({ $0.idleTimeout = .milliseconds(150) }) { peer in
            let report = try await Self.send(peer) {
                $0.count = 4
                $0.rate = 3
                $0.client.reconnectBase = .milliseconds(10)
                $0.client.maxDelay = .milliseconds(50)
            }
            #expect(report.succeeded)
            #expect(report.reconnects > 0)
            #expect(report.negotiated.count == 1)
        }
    }

    @Test("with reconnecting off, a dropped connection loses what was left")
    func noReconnect() async throws {
        try await LoopbackPeer.with({ $0.idleTimeout = .milliseconds(150) }) { peer in
            let report = try await Self.send(peer) {
                $0.count = 4
                $0.rate = 3
                $0.client.reconnect = .none
            }
            #expect(report.acknowledged >= 1 && report.lost >= 1)
            #expect(report.acknowledged + report.lost == 4)
        }
    }

    @Test("heartbeats go out at their interval and are acknowledged")
    func heartbeats() async throws {
        try await LoopbackPeer.with { peer in
            let report = try await Self.send(peer) {
                // Sending takes 1.5 s: room for heartbeats and their ACKs on a loaded machine.
                $0.count = 3
                $0.rate = 2
                $0.client.heartbeat = .milliseconds(50)
            }
            #expect(report.succeeded)
            #expect(report.heartbeatsAcknowledged >= 1)
        }
    }
}
