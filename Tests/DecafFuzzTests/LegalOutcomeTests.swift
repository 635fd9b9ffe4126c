@testable import DecafConformance
import DecafFuzz
import DecafSession
import DecafVectors
import DecafWire
import Testing

/// No finding for what a legal receiver may answer: the three findings Decaf once made against
/// correct implementations, each an answer inside `LegalOutcomes` or an input the testee protocol
/// never asks.
@Suite("findings only outside the legal outcomes")
struct LegalOutcomeTests {
    static func frame(_ type: MessageType, encrypt: EncryptType = .none, compress: CompressType = .none, payload: [UInt8] = []) -> [UInt8] {
        var encoder = FrameEncoder()
        let header = FrameHeader(messageType: type, sequence: SequenceNumber(category: .normal, counter: 5), timestamp: 1_700_000_000,
                                 sessionID: SessionID(rawValue: 1), encryptType: encrypt, compressType: compress)
        return encoder.encode(header, payload: payload)
    }

    @Test("an AES256 frame taken as opaque and then refused for its compress_type is a legal answer, not a finding")
    func opaqueThenRefused() throws {
        let bytes = Self.frame(.data, encrypt: .aes256, compress: CompressType(rawValue: 5), payload: TLVEncoder.encode([TLVField(tag: .text, text: "x")]))
        let legal = LegalOutcomes(of: bytes, options: DecodeOptions())
        #expect(legal.refusals.map(\.code) == [.unsupportedEncryption, .unsupportedCompression])
        let codecCase = try #require(DecoderCase.make(bytes, options: DecodeOptions(), number: 1))
        for (error, offset) in [("UNSUPPORTED_ENCRYPTION", 16), ("UNSUPPORTED_COMPRESSION", 17)] {
            #expect(DecoderCase.isLegal(TesteeMessage.Response(result: "error", error: error, offset: offset), of: codecCase), "\(error)")
        }
        #expect(!DecoderCase.isLegal(TesteeMessage.Response(result: "error", error: "CHECKSUM_MISMATCH", offset: 24), of: codecCase))
    }

    /// Four containers deep, then `inner` as the value of a fifth.
    static func nested(_ inner: [UInt8]) -> [UInt8] {
        (0..<4).reduce(TLVEncoder.encode([TLVField(tag: .container, bytes: inner)])) { value, _ in TLVEncoder.encode([TLVField(tag: .container, bytes: value)]) }
    }

    @Test("the choice to take an empty container past the depth limit, followed to its end, still refuses one past the limit that holds fields")
    func emptyContainerFollowedToItsEnd() throws {
        // Inside four containers: an empty fifth, then a fifth that holds a TEXT (repeated tags
        // allowed, so the second container is not refused for its tag).
        var options = DecodeOptions()
        options.tlv.allowsDuplicateTags = true
        let fourth = TLVEncoder.encode([TLVField(tag: .container, bytes: []), TLVField(tag: .text, text: "x")])
        let holding = TLVEncoder.encode([TLVField(tag: .container, bytes: TLVEncoder.encode([TLVField(tag: .text, text: "y")]))])
        let payload = (0..<4).reduce(fourth + holding) { value, _ in TLVEncoder.encode([TLVField(tag: .container, bytes: value)]) }
        let bytes = Self.frame(.data, payload: payload)
        let legal = LegalOutcomes(of: bytes, options: options)
        #expect(!legal.allowsFrame, "a receiver that takes the empty fifth container refuses the next one at its tag")
        let offsets = legal.refusals.filter { $0.code == .tlvTooDeep }.map(\.offset)
        #expect(offsets.count == 2 && offsets[0] < offsets[1], "\(legal.refusals)")
        // The empty fifth container alone is a frame to such a receiver.
        #expect(LegalOutcomes(of: Self.frame(.data, payload: Self.nested([])), options: DecodeOptions()).allowsFrame)
        #expect(!LegalOutcomes(of: Self.frame(.data, payload: Self.nested(TLVEncoder.encode([TLVField(tag: .text, text: "z")]))), options: DecodeOptions()).allowsFrame)
    }

    /// Found by the codec zoo (decrypts-aes256 with empty-container-past-limit, a 10-minute
    /// campaign): the choice was followed only when the rest of the body parsed, so a receiver
    /// that took the empty container and then refused the byte after it was a false finding.
    @Test("an empty container one past the limit, then a field cut short: that receiver's refusal of the field is legal")
    func emptyContainerThenCutShort() throws {
        // Five nested containers, the innermost empty, then one byte at the top level.
        let bytes = try #require(Hex.bytes("decafbad01000000000000016553f1000000444c0000001f9a017e9bffff00000018ffff00000012ffff0000000cffff00000006ffff0000000000"))
        let legal = LegalOutcomes(of: bytes, options: DecodeOptions())
        #expect(legal.refusals.map(\.code) == [.tlvTooDeep, .tlvTruncated], "\(legal.refusals)")
        let codecCase = try #require(DecoderCase.make(bytes, options: DecodeOptions(), number: 1))
        #expect(DecoderCase.isLegal(TesteeMessage.Response(result: "error", error: "TLV_TRUNCATED", offset: 30), of: codecCase))
        #expect(DecoderCase.isLegal(TesteeMessage.Response(result: "error", error: "TLV_TOO_DEEP", offset: 24), of: codecCase))
        #expect(!DecoderCase.isLegal(TesteeMessage.Response(result: "error", error: "TLV_TRUNCATED", offset: 24), of: codecCase))
    }

    @Test("a frame with a byte after it under any legal reading is never asked: the testee protocol answers for one frame")
    func frameAndMore() {
        // Refused from its header by a receiver that cannot decrypt, but a 28-byte frame and one
        // more byte to a receiver that can.
        let bytes = Self.frame(.data, encrypt: .aes256) + [0x00]
        #expect(DecoderCase.make(bytes, options: DecodeOptions(), number: 1) == nil)
        #expect(DecoderCase.make(Self.frame(.data, encrypt: .aes256), options: DecodeOptions(), number: 1) != nil)
    }

    @Test("an ACK marked AES256 that a server taking AES256 bodies accepts in silence passes once the sentinel is answered, and a close passes too")
    func silentAck() throws {
        let bytes = Self.frame(.ack, encrypt: .aes256)
        let plan = ServerCase.Plan()
        let serverCase = try #require(ServerCase.make(bytes, options: DecodeOptions(), number: 1, plan: plan))
        guard case let .expect(expectation)? = serverCase.steps.last else { Issue.record("no expectation"); return }
        #expect(expectation == .noAckOrFatal(SequenceNumber(category: .normal, counter: 5), .unsupportedEncryption))

        let steps: [ConformanceStep] = [.send(Transmission(label: "ACK marked AES256", bytes: bytes)), .expect(expectation)]
        let target = TargetIdentity(version: .v1_0, features: .known, note: "")
        func judge() -> ServerJudge {
            ServerJudge(testCase: ConformanceCase("fuzz.input-1", [.frame5], .optional, "an ACK marked AES256", steps: steps), target: target,
                        timeout: .seconds(2), idleTimeout: nil, session: SessionID(rawValue: 0x4401), stampsFrames: false)
        }
        let time = SessionTime(elapsed: .milliseconds(1), unixSeconds: 1_700_000_000)
        // Taken in silence: the sentinel's ACK shows the server went on.
        var silent = judge()
        _ = silent.start(at: time)
        let sentinelWrite = silent.wrote(at: time)
        guard case let .write(sentinelBytes, _, _)? = sentinelWrite.first, let sentinel = FrameHeader(decoding: sentinelBytes[...]) else {
            Issue.record("no sentinel: \(sentinelWrite)")
            return
        }
        _ = silent.wrote(at: time)
        var encoder = FrameEncoder()
        let ack = FrameHeader(messageType: .ack, sequence: sentinel.sequence, timestamp: 1_700_000_000, sessionID: sentinel.sessionID)
        var decoder = FrameDecoder()
        decoder.append(encoder.encode(ack, payload: []))
        let verdict = silent.received(try #require(try decoder.nextFrame()), at: time).compactMap { if case let .finish(verdict) = $0 { verdict } else { nil } }.first
        #expect(verdict?.kind == .pass, "\(verdict?.reason ?? "no verdict")")
        // Refused: the close before the sentinel's ACK.
        var refusing = judge()
        _ = refusing.start(at: time)
        _ = refusing.wrote(at: time)
        _ = refusing.wrote(at: time)
        let closed = refusing.closed(at: time).compactMap { if case let .finish(verdict) = $0 { verdict } else { nil } }.first
        #expect(closed?.kind.isPass == true, "\(closed?.reason ?? "no verdict")")
    }
}
