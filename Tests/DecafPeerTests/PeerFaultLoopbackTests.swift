import DecafNIO
import DecafSession
import DecafPeer
import DecafWire
import Foundation
import Testing

/// Every fault, seen from a client over a real connection.
@Suite("Peer on loopback: faults", .serialized, .timeLimit(.minutes(3)))
struct PeerFaultLoopbackTests {
    static func with(_ fault: PeerFault, _ body: (WireClient) async throws -> Void) async throws {
        try await LoopbackPeer.with({ $0.faults = [fault] }) { peer in
            let client = try await peer.client()
            try await body(client)
            await client.close()
        }
    }

    static let dataSentinel = ClientFrames.data(999, "sentinel")

    @Test("crc-little-endian: the version response's checksum arrives byte-swapped")
    func crcLittleEndian() async throws {
        try await Self.with(.crcLittleEndian) { client in
            try await client.send(ClientFrames.versionRequest())
            #expect(await client.nextFrame()?.header.messageType == .ack)
            guard case let .error(error)? = await client.next() else {
                Issue.record("the response decoded cleanly")
                return
            }
            #expect(error.code == .checksumMismatch && error.isByteSwappedChecksum)
        }
    }

    @Test("no-heartbeat-ack: a heartbeat gets no ACK")
    func noHeartbeatAck() async throws {
        try await Self.with(.noHeartbeatAck) { client in
            try await client.send(ClientFrames.frame(.heartbeat, 1))
            #expect(try await client.framesBefore(sentinel: Self.dataSentinel).isEmpty)
        }
    }

    @Test("double-control-ack: a CONTROL frame gets two ACKs")
    func doubleControlAck() async throws {
        try await Self.with(.doubleControlAck) { client in
            try await client.send(ClientFrames.frame(.control, 1))
            #expect(try await client.framesBefore(sentinel: ClientFrames.sentinel()).count == 2)
        }
    }

    @Test("ack-wrong-sequence: the ACK carries the next counter")
    func ackWrongSequence() async throws {
        try await Self.with(.ackWrongSequence) { client in
            try await client.send(ClientFrames.data(5))
            #expect(await client.nextFrame()?.header.sequence == ClientFrames.data(5).header.sequence.next)
        }
    }

    @Test("handshake-ignores-short: the normal 10-byte request gets its ACK but no response")
    func handshakeIgnoresShort() async throws {
        try await Self.with(.handshakeIgnoresShort) { client in
            try await client.send(ClientFrames.versionRequest())
            #expect(try await client.framesBefore(sentinel: ClientFrames.sentinel()).map(\.header.messageType) == [.ack])
        }
    }

    @Test("fixed-features: the response says 0x000F whatever was asked")
    func fixedFeatures() async throws {
        try await Self.with(.fixedFeatures) { client in
            try await client.send(ClientFrames.versionRequest(1, 0, .basic))
            let response = try #require(try await client.framesBefore(sentinel: ClientFrames.sentinel()).first { $0.header.messageType == .control })
            #expect(Array(response.fields).first?.interpreted == .versionResponse(VersionResponse(version: .v1_0, features: FeatureFlags(rawValue: 0x000F))))
        }
    }

    @Test("replay-reject: a repeat closes the connection instead of being acknowledged")
    func replayReject() async throws {
        try await Self.with(.replayReject) { client in
            try await client.send(ClientFrames.data(1))
            try await client.send(ClientFrames.data(1))
            #expect(await client.nextFrame()?.header.messageType == .ack)
            #expect(await client.next() == .closed)
        }
    }

    @Test("replay-redeliver: a repeat gets a second read receipt")
    func replayRedeliver() async throws {
        try await Self.with(.replayRedeliver) { client in
            try await client.send(ClientFrames.versionRequest(1, 0, [.basic, .readReceipt]))
            _ = try await client.framesBefore(sentinel: ClientFrames.sentinel(900))
            try await client.send(ClientFrames.data(1))
            try await client.send(ClientFrames.data(1))
            let replies = try await client.framesBefore(sentinel: ClientFrames.sentinel(901))
            #expect(replies.map(\.header.messageType) == [.ack, .readReceipt, .ack, .readReceipt])
        }
    }

    @Test("accept-bad-crc: a frame with a wrong checksum is acknowledged")
    func acceptBadCRC() async throws {
        try await Self.with(.acceptBadCRC) { client in
            var encoder = FrameEncoder()
            var bytes = encoder.encode(ClientFrames.data(1).header, payload: ClientFrames.data(1).payload)
            bytes[24] ^= 0xFF
            try await client.send(raw: bytes)
            #expect(await client.nextFrame()?.header.messageType == .ack)
        }
    }

    @Test("keep-open-on-bad-magic: the ERROR comes, the close does not")
    func keepOpenOnBadMagic() async throws {
        try await Self.with(.keepOpenOnBadMagic) { client in
            try await client.send(raw: Array("GET / HTTP/1.1\r\n\r\n".utf8))
            #expect(await client.nextFrame()?.header.messageType == .control)
            #expect(await client.next(timeout: .milliseconds(300)) == nil)
            #expect(client.isOpen)
        }
    }

    @Test("keep-open-on-error: a body that does not inflate gets its ERROR but no close; beside ignores-stream-end, not even once the stream ends")
    func keepOpenOnError() async throws {
        var encoder = FrameEncoder()
        var bytes = encoder.encode(ClientFrames.data(1).header, payload: [0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x00])
        // Marked zlib, the same body (and so the same checksum) is no zlib stream.
        bytes[FrameHeader.Field.compressType.offset] = CompressType.zlib.rawValue
        try await LoopbackPeer.with({ $0.faults = [.keepOpenOnError, .ignoresStreamEnd] }) { peer in
            let client = try await peer.client()
            try await client.send(raw: bytes)
            #expect(await client.nextFrame()?.fields.contains { $0.tag == .error } == true)
            #expect(await client.next(timeout: .milliseconds(300)) == nil)
            try await client.endStream(within: .seconds(5))
            #expect(await client.next(timeout: .seconds(1)) == nil)
            #expect(client.isOpen)
            await client.close()
        }
    }

    @Test("ack-unknown-types: an undefined message type is acknowledged")
    func ackUnknownTypes() async throws {
        try await Self.with(.ackUnknownTypes) { client in
            try await client.send(ClientFrames.frame(MessageType(rawValue: 9), 1))
            #expect(try await client.framesBefore(sentinel: ClientFrames.sentinel()).count == 1)
        }
    }

    @Test("drop-on-deep-tlv: three nested containers, within the brief's limit, close the connection without an ERROR")
    func dropOnDeepTLV() async throws {
        try await Self.with(.dropOnDeepTLV) { client in
            let deep = (1...3).reduce(TLVField.container([])) { inner, _ in .container([inner]) }
            try await client.send(ClientFrames.frame(.data, 1, fields: [deep]))
            #expect(await client.next() == .closed)
        }
    }

    @Test("slow-ack: the ACK comes no sooner than the delay")
    func slowAck() async throws {
        try await Self.with(.slowAck(delay: .milliseconds(300))) { client in
            let start = ContinuousClock.now
            try await client.send(ClientFrames.data(1))
            #expect(await client.nextFrame()?.header.messageType == .ack)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
        }
    }

    @Test("ack-acks: an ACK frame is acknowledged")
    func ackAcks() async throws {
        try await Self.with(.ackAcks) { client in
            try await client.send(ClientFrames.frame(.ack, 7))
            #expect(try await client.framesBefore(sentinel: ClientFrames.sentinel()).map(\.header.messageType) == [.ack])
        }
    }

    @Test("no-read-receipts: READ_RECEIPT agreed, a DATA frame gets its ACK and no receipt")
    func noReadReceipts() async throws {
        try await Self.with(.noReadReceipts) { client in
            try await client.send(ClientFrames.versionRequest(1, 0, [.basic, .readReceipt]))
            _ = try await client.framesBefore(sentinel: ClientFrames.sentinel(900))
            try await client.send(ClientFrames.data(1))
            #expect(try await client.framesBefore(sentinel: ClientFrames.sentinel(901)).map(\.header.messageType) == [.ack])
        }
    }

    @Test("read-receipts-unagreed: READ_RECEIPT not agreed, a DATA frame gets a receipt anyway")
    func readReceiptsUnagreed() async throws {
        try await Self.with(.readReceiptsUnagreed) { client in
            try await client.send(ClientFrames.versionRequest(1, 0, [.basic]))
            _ = try await client.framesBefore(sentinel: ClientFrames.sentinel(900))
            try await client.send(ClientFrames.data(1))
            #expect(try await client.framesBefore(sentinel: ClientFrames.sentinel(901)).map(\.header.messageType) == [.ack, .readReceipt])
        }
    }

    @Test("no-idle-timeout: a connection idle past the idle timeout stays open")
    func noIdleTimeout() async throws {
        try await LoopbackPeer.with({ $0.faults = [.noIdleTimeout]; $0.idleTimeout = .milliseconds(200) }) { peer in
            let client = try await peer.client()
            #expect(await client.next(timeout: .seconds(1)) == nil)
            #expect(client.isOpen)
            await client.close()
        }
    }

    @Test("ignores-stream-end: a frame cut short by the end of the stream gets no answer, and the connection stays open")
    func ignoresStreamEnd() async throws {
        try await Self.with(.ignoresStreamEnd) { client in
            var encoder = FrameEncoder()
            let bytes = encoder.encode(ClientFrames.data(1).header, payload: ClientFrames.data(1).payload)
            try await client.send(raw: Array(bytes.prefix(20)))
            try await client.endStream(within: .seconds(5))
            #expect(await client.next(timeout: .seconds(1)) == nil)
            #expect(client.isOpen)
        }
        // Without the fault, the same bytes end with the close.
        try await LoopbackPeer.with { peer in
            let client = try await peer.client()
            var encoder = FrameEncoder()
            let bytes = encoder.encode(ClientFrames.data(1).header, payload: ClientFrames.data(1).payload)
            try await client.send(raw: Array(bytes.prefix(20)))
            try await client.endStream(within: .seconds(5))
            #expect(await client.next(timeout: .seconds(10)) == .closed)
            await client.close()
        }
    }

    @Test("the fault list is the 19 this suite covers: a new fault needs its own test here")
    func faultListMatchesSuite() {
        #expect(PeerFault.all.map(\.name) == [
            "crc-little-endian", "no-heartbeat-ack", "double-control-ack", "ack-wrong-sequence", "handshake-ignores-short",
            "fixed-features", "replay-reject", "replay-redeliver", "accept-bad-crc", "keep-open-on-bad-magic",
            "keep-open-on-error", "ack-unknown-types", "drop-on-deep-tlv", "slow-ack", "ack-acks", "no-read-receipts", "read-receipts-unagreed",
            "no-idle-timeout", "ignores-stream-end",
        ])
    }
}

@Suite("Peer on loopback: resources", .serialized, .timeLimit(.minutes(3)))
struct PeerResourceTests {
    @Test("a client that never reads its replies is not read from either: the peer's buffers stay bounded")
    func nonReadingClient() async throws {
        try await LoopbackPeer.with({
            $0.outboundHighWaterMark = 16 * 1024
            $0.socketSendBufferSize = 16 * 1024
        }) { peer in
            let client = try await WireClient.connect(host: "127.0.0.1", port: peer.server.localAddress.port!,
                                                      receiveBufferSize: 16 * 1024, readsReplies: false)
            var encoder = FrameEncoder()
            let burst = (0..<1000).flatMap { encoder.encode(ClientFrames.data(UInt32($0)).header, payload: ClientFrames.data(UInt32($0)).payload) }
            let flood = Task {
                for _ in 0..<100 { try await client.send(raw: burst) }
            }
            // A bound, not a timing: in a loaded parallel run the flood's task once waited past 20 s.
            let deadline = ContinuousClock.now + .seconds(90)
            while peer.server.statistics.readPauses == 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(peer.server.statistics.readPauses >= 1)
            await client.close()
            _ = await flood.result
            try await peer.stop()
            #expect(peer.server.statistics.framesReceived < 100_000, "the peer stopped reading long before the flood ended")
        }
    }

    @Test("--pcap records every connection")
    func pcap() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "decaf-peer-\(UUID()).pcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = PeerConfiguration()
        configuration.idleTimeout = .seconds(30)
        let server = try await PeerServer.start(configuration: configuration, pcapPath: path, threads: 1, clock: { LoopbackPeer.now })
        let client = try await WireClient.connect(host: "127.0.0.1", port: server.localAddress.port!)
        for counter in 1...3 { try await client.send(ClientFrames.data(UInt32(counter))) }
        _ = try await client.framesBefore(sentinel: ClientFrames.sentinel())
        await client.close()
        try await server.shutdown()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.prefix(4) == Data([0xD4, 0xC3, 0xB2, 0xA1]), "pcap magic, little-endian")
        let magic = Data([0xDE, 0xCA, 0xFB, 0xAD])
        var count = 0
        var range = bytes.startIndex..<bytes.endIndex
        while let found = bytes.range(of: magic, in: range) {
            count += 1
            range = found.upperBound..<bytes.endIndex
        }
        #expect(count == 8, "4 frames each way")
    }
}
