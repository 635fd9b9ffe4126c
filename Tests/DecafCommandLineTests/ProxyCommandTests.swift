import DecafTestSupport
import Foundation
import Testing

/// `decaf proxy` between `decaf handshake` and `decaf peer`, each run as a user runs it.
@Suite("decaf proxy on the command line", .timeLimit(.minutes(2)))
struct ProxyCommandTests {
    @Test("a handshake through the proxy with 100 ms latency each way takes at least 200 ms; the proxy says what it carried")
    func handshakeThroughLatency() async throws {
        let peer = try RunningChild(decaf: ["peer", "--log-level", "critical"])
        let peerAddress = String(try await peer.firstLine().dropFirst("listening on ".count))
        let proxy = try RunningChild(decaf: ["proxy", "127.0.0.1:0", peerAddress, "--toxic", "latency=100ms"])
        let proxyLine = try await proxy.firstLine()
        #expect(proxyLine.hasPrefix("listening on 127.0.0.1:"))
        let handshake = try await DecafProcess.run(["handshake", "--json", String(proxyLine.dropFirst("listening on ".count))])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(handshake.output.utf8)) as? [String: Any])
        #expect(report["ok"] as? Bool == true, "\(handshake.output) \(handshake.error)")
        let roundTrip = try #require(report["roundTripMs"] as? Double, "\(report)")
        #expect(roundTrip >= 200)
        let stopped = String(decoding: try await proxy.stop().output, as: UTF8.self)
        #expect(stopped.contains("stopped by signal 2: 1 connections, 0 refused, 0 could not reach the upstream"), "\(stopped)")
        _ = try await peer.stop()
    }

    @Test("a frame toxic on DATA only lets the handshake through, and the proxy counts the frames it saw (--json)")
    func frameToxicCounts() async throws {
        let peer = try RunningChild(decaf: ["peer", "--log-level", "info"])
        let peerAddress = String(try await peer.firstLine().dropFirst("listening on ".count))
        let proxy = try RunningChild(decaf: ["proxy", "127.0.0.1:0", peerAddress, "--toxic", "drop_frames:probability=100%,types=DATA@upstream", "--json"])
        let address = String(try await proxy.firstLine().dropFirst("listening on ".count))
        let handshake = try await DecafProcess.run(["handshake", address])
        #expect(handshake.status == 0, "\(handshake.output)")
        // The proxy passes the client's close after its last frame: once the peer has seen it, the
        // proxy has counted every frame, and what it counted is what the peer got (the request and
        // the ACK of the response, unless a loaded machine made the client give up before it).
        let closed = try await peer.errorLine(containing: "connection closed")
        let received = closed.components(separatedBy: "in: ").dropFirst().first?.components(separatedBy: ";").first ?? ""
        let peerFrames = received.split(separator: " ").compactMap { $0.split(separator: "=").last.flatMap { Int($0) } }.reduce(0, +)
        let stopped = String(decoding: try await proxy.stop().output, as: UTF8.self)
        let last = try #require(stopped.split(separator: "\n").last)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let counts = try #require(json["counts"] as? [String: Any])
        let frames = try #require((counts["upstream"] as? [String: Any])?["frames"] as? [String: Any])
        #expect(json["signal"] as? Int == 2 && counts["connections"] as? Int == 1)
        #expect(frames["seen"] as? Int == peerFrames && peerFrames >= 1 && frames["dropped"] as? Int == 0, "\(last) \(closed)")
        #expect(received.contains("CONTROL=1"), "\(closed)")
        _ = try await peer.stop()
    }

    @Test("a toxic that is not one, or misses what it needs, is refused with the reason", arguments: [
        ("jitter=5ms", "'jitter' is not a toxic"), ("latency", "latency needs latency"), ("latency=200ms@sideways", "upstream or downstream"),
        ("latency:latency=200ms,speed=3", "latency has no attribute 'speed'"), ("bandwidth=-1", "rate:"),
        ("packet_loss=nan", "'nan' is not a probability"), ("packet_loss=150%", "'150%' is not a probability"),
    ])
    func badToxics(spec: String, reason: String) async throws {
        let run = try await DecafProcess.run(["proxy", "127.0.0.1:0", "127.0.0.1:1", "--toxic", spec])
        #expect(run.status == 2)
        #expect(run.error.contains(reason), "\(run.error)")
    }
}
