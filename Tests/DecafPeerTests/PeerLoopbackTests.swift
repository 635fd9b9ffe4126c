import DecafNIO
import DecafSession
import DecafPeer
import DecafWire
import Testing

// Each test takes well under a second alone; the limits leave room for waiting on a machine whose
// cores the other suites' testees and peers keep busy at the start of a run.
@Suite("Peer on loopback: section 7", .serialized, .timeLimit(.minutes(3)))
struct PeerLoopbackTests {
    @Test("DATA, CONTROL and READ_RECEIPT each get one ACK; HEARTBEAT too; ACK and unknown types get none")
    func acknowledgements() async throws {
        try await LoopbackPeer.with { peer in
            let client = try await peer.client()
            let sent = [ClientFrames.data(1), ClientFrames.frame(.control, 2), ClientFrames.frame(.readReceipt, 3),
                        ClientFrames.frame(.heartbeat, 4), ClientFrames.frame(.ack, 5), ClientFrames.frame(MessageType(rawValue: 9), 6)]
            for frame in sent { try await client.send(frame) }
            let replies = try await client.framesBefore(sentinel: ClientFrames.sentinel())
            #expect(replies.map(\.header.messageType) == [.ack, .ack, .ack, .ack])
            #expect(replies.map(\.header.sequence) == sent.prefix(4).map(\.header.sequence))
            #expect(replies.allSatisfy { $0.header.sessionID == ClientFrames.session && $0.body.isEmpty && $0.header.checksum == 0 })
            await client.close()
        }
    }

    @Test("the handshake agrees on the lower of the two minors")
    func lowerMinor() async throws {
        try await LoopbackPeer.with({ $0.version = ProtocolVersion(major: 1, minor: 3) }) { peer in
            let client = try await peer.client()
            try await client.send(ClientFrames.versionRequest(1, 1, .basic))
            let replies = try await client.framesBefore(sentinel: ClientFrames.sentinel())
            let response = try #require(replies.first { $0.header.messageType == .control })
            #expect(Array(response.fields).first?.interpreted == .versionResponse(VersionResponse(version: ProtocolVersion(major: 1, minor: 1), features: .basic)))
            #expect(response.header.version == ProtocolVersion(major: 1, minor: 1), "the response already uses the agreed version (VER-3)")
            await client.close()
        }
    }

    @Test("the handshake over the wire: an ACK and a VERSION_RESPONSE with the intersection")
    func handshake() async throws {
        try await LoopbackPeer.with({ $0.features = [.basic, .readReceipt, .compression] }) { peer in
            let client = try await peer.client()
            let request = ClientFrames.versionRequest(1, 0, [.basic, .readReceipt, .groupChat])
            try await client.send(request)
            let replies = try await client.framesBefore(sentinel: ClientFrames.sentinel())
            #expect(replies.count == 2)
            #expect(replies.contains { $0.header.messageType == .ack && $0.header.sequence == request.header.sequence })
            let response = try #require(replies.first { $0.header.messageType == .control })
            #expect(Array(response.fields).first?.interpreted == .versionResponse(VersionResponse(version: .v1_0, features: [.basic, .readReceipt])))
            await client.close()
        }
    }
}

@Suite("Peer on loopback: exchanges and errors", .serialized, .timeLimit(.minutes(3)))
struct PeerExchangeTests {
    @Test("each fatal error is answered by a CONTROL frame with its ERROR TLV, then the close (EX-5)", arguments: [
        ("decafbae" + String(repeating: "00", count: 24), ErrorCode.badMagic),
        ("decafbad0200000000000001000000000000444c0000000000000000", .versionUnsupported),
        ("decafbad0100000000000001000000000000444cffffffff00000000", .bodyTooLarge),
        ("decafbad0100000000000001000000000300444c0000000000000000", .unsupportedEncryption),
        ("decafbad0100000000000001000000000009444c0000000000000000", .unsupportedCompression),
        ("decafbad0100000000000001000000000000444c000000010000000000", .checksumMismatch),
    ])
    func fatalErrors(hex: String, code: ErrorCode) async throws {
        try await LoopbackPeer.with { peer in
            let client = try await peer.client()
            try await client.send(raw: Hex.bytes(hex)!)
            let error = try #require(await client.nextFrame())
            #expect(error.header.messageType == .control)
            guard case let .error(report)? = Array(error.fields).first?.interpreted else {
                Issue.record("no ERROR TLV")
                return
            }
            #expect(report.code == code.rawValue)
            #expect(report.reason.hasPrefix(code.name))
            #expect(await client.next() == .closed)
        }
    }

    @Test("body errors are reported too: zlib, TLV framing, depth and repeated tags", arguments: [
        (CompressType.zlib, [UInt8]([0x78, 0x9C, 0xFF]), ErrorCode.decompressionFailed),
        (.none, [0x10, 0x01, 0x00], .tlvTruncated),
        (.none, [0x10, 0x01, 0, 0, 0, 9, 0x41], .tlvLengthOverflow),
        (.none, TLVEncoder.encode([(1...5).reduce(TLVField.container([])) { inner, _ in .container([inner]) }]), .tlvTooDeep),
        (.none, TLVEncoder.encode([TLVField(tag: .text, text: "a"), TLVField(tag: .text, text: "b")]), .tlvDuplicateTag),
    ])
    func bodyErrors(compress: CompressType, payload: [UInt8], code: ErrorCode) async throws {
        try await LoopbackPeer.with { peer in
            let client = try await peer.client()
            var header = ClientFrames.header(.data, 1)
            header.compressType = compress
            header.bodyLength = UInt32(payload.count)
            header.checksum = CRC32.checksum(payload)
            try await client.send(raw: header.bytes + payload)
            let error = try #require(await client.nextFrame())
            guard case let .error(report)? = Array(error.fields).first?.interpreted else {
                Issue.record("no ERROR TLV")
                return
            }
            #expect(report.code == code.rawValue)
            #expect(await client.next() == .closed)
        }
    }

    @Test("with a timestamp window, a frame from a clock too far off gets TIMESTAMP_OUT_OF_WINDOW, then the close (TS-1)")
    func timestampWindow() async throws {
        try await LoopbackPeer.with({ $0.timestampWindow = 60 }) { peer in
            let client = try await peer.client()
            try await client.send(OutgoingFrame(header: ClientFrames.header(.data, 1, timestamp: LoopbackPeer.now + 30), fields: []))
            #expect(await client.nextFrame()?.header.messageType == .ack, "30 s off is within the window")
            try await client.send(OutgoingFrame(header: ClientFrames.header(.data, 2, timestamp: LoopbackPeer.now - 61), fields: []))
            let error = try #require(await client.nextFrame())
            #expect(Array(error.fields).first?.interpreted.errorCode == ErrorCode.timestampOutOfWindow.rawValue)
            #expect(await client.next() == .closed)
        }
    }

    @Test("an idle connection is closed after the idle timeout (EX-6)")
    func idleTimeout() async throws {
        // Long enough that a loaded machine still gets the first frame in before the peer gives up
        // (1 s was not, with the whole suite running).
        try await LoopbackPeer.with({ $0.idleTimeout = .seconds(3) }) { peer in
            let client = try await peer.client()
            try await client.send(ClientFrames.data(1))
            #expect(await client.nextFrame()?.header.messageType == .ack)
            #expect(await client.next(timeout: .seconds(20)) == .closed)
        }
    }

    @Test("a different major gets the peer's version and no features, then the close (HS-2)")
    func majorMismatch() async throws {
        try await LoopbackPeer.with { peer in
            let client = try await peer.client()
            try await client.send(ClientFrames.versionRequest(2, 0))
            var frames: [Frame] = []
            while case let .frame(frame)? = await client.next() { frames.append(frame) }
            let response = try #require(frames.first { $0.header.messageType == .control })
            #expect(Array(response.fields).first?.interpreted == .versionResponse(VersionResponse(version: .v1_0, features: [])))
            #expect(!client.isOpen)
        }
    }

    @Test("a second handshake renegotiates, and read receipts follow the latest agreement (HS-2, EX-4)")
    func renegotiation() async throws {
        try await LoopbackPeer.with { peer in
            let client = try await peer.client()
            try await client.send(ClientFrames.versionRequest(1, 0, [.basic, .readReceipt], counter: 1))
            _ = try await client.framesBefore(sentinel: ClientFrames.sentinel(900))
            try await client.send(ClientFrames.data(1))
            let withReceipts = try await client.framesBefore(sentinel: ClientFrames.sentinel(901))
            #expect(withReceipts.map(\.header.messageType) == [.ack, .readReceipt])
            #expect(Array(withReceipts[1].fields).first?.interpreted == .readReceipt(ReadReceipt(sequence: ClientFrames.data(1).header.sequence)))
            try await client.send(ClientFrames.versionRequest(1, 0, [.basic], counter: 2))
            _ = try await client.framesBefore(sentinel: ClientFrames.sentinel(902))
            try await client.send(ClientFrames.data(2))
            #expect(try await client.framesBefore(sentinel: ClientFrames.sentinel(903)).map(\.header.messageType) == [.ack])
            await client.close()
        }
    }

    @Test("a repeat is acknowledged again but delivered once: no second read receipt (REPLAY-1)")
    func repeats() async throws {
        try await LoopbackPeer.with { peer in
            let client = try await peer.client()
            try await client.send(ClientFrames.versionRequest(1, 0, [.basic, .readReceipt]))
            _ = try await client.framesBefore(sentinel: ClientFrames.sentinel(900))
            let data = ClientFrames.data(7)
            try await client.send(data)
            try await client.send(data)
            let replies = try await client.framesBefore(sentinel: ClientFrames.sentinel(901))
            #expect(replies.map(\.header.messageType) == [.ack, .readReceipt, .ack])
            #expect(replies.filter { $0.header.messageType == .ack }.allSatisfy { $0.header.sequence == data.header.sequence })
            await client.close()
        }
    }

    @Test("a message resent after a reconnect is acknowledged on the new connection, not delivered again (REPLAY-1, EX-4)")
    func repeatAfterReconnect() async throws {
        try await LoopbackPeer.with { peer in
            let data = ClientFrames.data(7)
            let first = try await peer.client()
            try await first.send(ClientFrames.versionRequest(1, 0, [.basic, .readReceipt]))
            _ = try await first.framesBefore(sentinel: ClientFrames.sentinel(900))
            try await first.send(data)
            #expect(try await first.framesBefore(sentinel: ClientFrames.sentinel(901)).map(\.header.messageType) == [.ack, .readReceipt])
            await first.close()
            let second = try await peer.client()
            try await second.send(ClientFrames.versionRequest(1, 0, [.basic, .readReceipt]))
            _ = try await second.framesBefore(sentinel: ClientFrames.sentinel(902))
            try await second.send(data)
            let replies = try await second.framesBefore(sentinel: ClientFrames.sentinel(903))
            #expect(replies.map(\.header.messageType) == [.ack])
            #expect(replies.first?.header.sequence == data.header.sequence)
            await second.close()
        }
    }

    @Test("garbage and half frames on some connections do not disturb the others")
    func isolation() async throws {
        try await LoopbackPeer.with { peer in
            let good = try await peer.client()
            let garbage = try await peer.client()
            let half = try await peer.client()
            try await half.send(raw: Array(ClientFrames.header(.data, 1).bytes.prefix(20)))
            try await garbage.send(raw: Array("GET / HTTP/1.1\r\n\r\n".utf8))
            for counter in 1...50 { try await good.send(ClientFrames.data(UInt32(counter))) }
            let replies = try await good.framesBefore(sentinel: ClientFrames.sentinel())
            #expect(replies.count == 50)
            #expect(await garbage.nextFrame()?.header.messageType == .control)
            #expect(await garbage.next() == .closed)
            #expect(half.isOpen)
            try await half.send(raw: Array(ClientFrames.header(.data, 1).bytes.suffix(8)))
            #expect(await half.nextFrame()?.header.messageType == .ack, "the half frame, completed, is served")
            await good.close()
            await half.close()
        }
    }

    @Test("connections beyond the limit are closed at once; the others are served")
    func connectionLimit() async throws {
        try await LoopbackPeer.with({ $0.maxConnections = 2 }) { peer in
            let first = try await peer.client()
            let second = try await peer.client()
            try await first.send(ClientFrames.data(1))
            try await second.send(ClientFrames.data(1))
            let firstReply = await first.nextFrame()
            let secondReply = await second.nextFrame()
            #expect(firstReply != nil && secondReply != nil)
            let third = try await peer.client()
            #expect(await third.next() == .closed)
            await first.close()
            await second.close()
        }
    }
}
