import DecafDissect
import DecafSession
import DecafNIO
import DecafPeer
import DecafTestSupport
import DecafWire
import Foundation
import Testing

/// Real captures: tshark records the loopback interface while a client talks to the peer, and
/// `decaf dissect` must find every frame, in order, per connection and direction, and the ACK
/// round trips. `-i lo` gives an Ethernet capture on Linux, `-i any` a Linux cooked (SLL) one.
@Suite(
    "live captures taken with tshark", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: ExternalTool.tshark.isInstalled, Comment(rawValue: ExternalTool.tshark.skipReason))
)
struct LiveCaptureTests {
    @Test("every frame of decaf handshake and of decaf send (2 x 25 messages, read receipts) is dissected from the capture", arguments: ["lo", "any"])
    func liveCapture(interface: String) async throws {
        try await LoopbackPeer.with { peer in
            let port = peer.server.localAddress.port!
            let capture = try await TsharkCapture.start(interface: interface, port: port)
            defer { try? capture.stop() }
            try await warmUp(capture, port: port)

            let handshake = try await HandshakeClient.run(host: "127.0.0.1", port: port, offer: VersionRequest(version: .v1_0, features: .known),
                                                          now: LoopbackPeer.clock)
            #expect(handshake.succeeded)
            var configuration = SendConfiguration()
            configuration.port = port
            configuration.connections = 2
            configuration.count = 25
            let report = try await SendClient.run(configuration, threads: 1, clock: LoopbackPeer.clock)
            #expect(report.acknowledged == 50 && report.readReceipts == 50)
            // tshark writes in batches and drops what it has not written when stopped: wait until
            // the file holds the last frames the clients sent.
            try await waitUntilWritten(capture, port: port, clientAcks: 50 + 2 + 1)
            try await capture.finish()

            let dissected = try await DecafProcess.run(["dissect", "--json", "--port", "\(port)", capture.file.path])
            #expect(dissected.status == 0, "\(dissected.error)")
            let records = dissected.output.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(!records.contains { ["gap", "capture-error", "resync"].contains($0["record"] as? String) })
            let frames = records.filter { $0["record"] as? String == "frame" }
            #expect(frames.allSatisfy { $0["status"] as? String == "ok" })
            // Per connection: DATA from the client, each once and in order, and as many READ_RECEIPTs back.
            let sendConnections = Dictionary(grouping: frames.filter { type(of: $0) == "DATA" }) { connection(of: $0) }
            #expect(sendConnections.count == 2)
            for (_, data) in sendConnections {
                #expect(data.allSatisfy { $0["direction"] as? String == "client-to-server" })
                #expect(data.map(counter(of:)) == Array(1...25))
            }
            // Only the warm-up connection may have begun before the capture did.
            #expect(!records.contains { $0["record"] as? String == "midstream" && sendConnections[connection(of: $0)] != nil })
            #expect(frames.filter { type(of: $0) == "READ_RECEIPT" && sendConnections[connection(of: $0)] != nil }.count == 50)

            let stats = try await DecafProcess.run(["dissect", "--stats", "--json", "--port", "\(port)", capture.file.path])
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any])
            // The clients acknowledge everything the peer sends them, the last READ_RECEIPT and the
            // VERSION_RESPONSE of decaf handshake included (EX-1, EX-4).
            #expect((summary["unacknowledged"] as? [Any])?.isEmpty == true, "\(summary["unacknowledged"] ?? "")")
            let roundTrips = try #require(summary["roundTrips"] as? [[String: Any]])
            // Every DATA frame the clients sent has its ACK round trip, of a plausible length.
            for index in sendConnections.keys {
                let measured = roundTrips.filter { $0["connection"] as? Int == index }
                let sequences = Set(measured.compactMap { $0["sequence"] as? Int })
                #expect(Set(1...25).isSubset(of: sequences))
                #expect(measured.allSatisfy { ($0["nanoseconds"] as? Int).map { $0 >= 0 && $0 < 60_000_000_000 } == true })
            }
        }
    }

    /// Heartbeats on a connection of their own until the capture file grows: the capture is live.
    /// tshark writes its file in batches, so the heartbeats are paced while waiting for that.
    private func warmUp(_ capture: TsharkCapture, port: Int) async throws {
        let client = try await WireClient.connect(host: "127.0.0.1", port: port)
        let emptySize = capture.fileSize
        var sent: UInt32 = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while capture.fileSize == emptySize, ContinuousClock.now < deadline {
            sent += 1
            try await client.send(ClientFrames.frame(.heartbeat, sent))
            _ = try #require(await client.nextFrame())
            try await Task.sleep(for: .milliseconds(50))
        }
        await client.close()
        #expect(capture.fileSize > emptySize, "tshark wrote no packet in 20 s")
    }

    /// Reads the capture file as it grows until it holds every ACK the clients sent for the
    /// peer's frames: one per READ_RECEIPT and one per VERSION_RESPONSE. Polls every 50 ms, 20 s at most.
    private func waitUntilWritten(_ capture: TsharkCapture, port: Int, clientAcks: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            var dissector = CaptureDissector(port: UInt16(port))
            let events = dissector.append(Array(FileManager.default.contents(atPath: capture.file.path) ?? Data())[...])
            let acks = events.filter { event in
                guard case let .frame(frame) = event, frame.direction == .clientToServer, let header = frame.record.header else { return false }
                return header.messageType == .ack && header.sequence.category != .heartbeat
            }
            if acks.count >= clientAcks { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the capture file never held the clients' \(clientAcks) ACKs")
    }

    private func type(of frame: [String: Any]) -> String? {
        (frame["header"] as? [String: Any])?["msgTypeName"] as? String
    }

    private func counter(of frame: [String: Any]) -> Int? {
        (frame["header"] as? [String: Any])?["sequenceCounter"] as? Int
    }

    private func connection(of frame: [String: Any]) -> Int {
        (frame["connection"] as? [String: Any])?["index"] as? Int ?? 0
    }
}
