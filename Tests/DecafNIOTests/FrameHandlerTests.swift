import DecafNIO
import DecafWire
import NIOCore
import NIOEmbedded
import Testing

@Suite("NIO frame handlers")
struct FrameHandlerTests {
    static let header = FrameHeader(messageType: .data, sequence: SequenceNumber(rawValue: 1), timestamp: 1_700_000_000, sessionID: SessionID(rawValue: 0x444C))

    static func frames(_ count: Int) -> [UInt8] {
        var encoder = FrameEncoder()
        var bytes: [UInt8] = []
        for index in 0..<count {
            var header = header
            header.sequence = SequenceNumber(category: .normal, counter: UInt32(index))
            header.compressType = index.isMultiple(of: 3) ? .zlib : .none
            encoder.append(header, payload: TLVEncoder.encode([TLVField(tag: .text, text: "message \(index) " + String(repeating: "x", count: index))]), to: &bytes)
        }
        return bytes
    }

    static func decoderChannel(options: DecodeOptions = DecodeOptions(), now: (() -> UInt32)? = nil) -> EmbeddedChannel {
        EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoderHandler(options: options, now: now)))
    }

    static func readAll(_ channel: EmbeddedChannel) throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try channel.readInbound(as: Frame.self) { frames.append(frame) }
        return frames
    }

    @Test("coalesced frames in one read come out one by one")
    func coalesced() throws {
        let channel = Self.decoderChannel()
        try channel.writeInbound(ByteBuffer(bytes: Self.frames(20)))
        let frames = try Self.readAll(channel)
        #expect(frames.map(\.header.sequence.counter) == Array(0..<20))
        #expect(Array(frames[4].fields).first?.interpreted == .text("message 4 xxxx"))
        #expect(try channel.finish().isClean)
    }

    @Test("frames split across reads of every size come out whole", arguments: [1, 2, 7, 28, 29, 100])
    func split(readSize: Int) throws {
        let bytes = Self.frames(10)
        let channel = Self.decoderChannel()
        var frames: [Frame] = []
        for start in stride(from: 0, to: bytes.count, by: readSize) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + readSize, bytes.count)]))
            frames += try Self.readAll(channel)
        }
        #expect(frames.count == 10)
        #expect(frames.map(\.header.sequence.counter) == Array(0..<10))
        #expect(try channel.finish().isClean)
    }

    @Test("a bad frame is passed on as its WireError, after the frames before it", arguments: [
        (0, ErrorCode.badMagic), (4, .versionUnsupported), (16, .unsupportedEncryption), (17, .unsupportedCompression),
        (24, .checksumMismatch), (30, .checksumMismatch),
    ])
    func errors(corruptedOffset: Int, expected: ErrorCode) throws {
        let good = Self.frames(1)
        var bad = Self.frames(2).suffix(from: good.count).map { $0 }
        bad[corruptedOffset] ^= 0x55
        let channel = Self.decoderChannel()
        do {
            try channel.writeInbound(ByteBuffer(bytes: good + bad))
            Issue.record("no error")
        } catch let error as WireError {
            #expect(error.code == expected)
        }
        #expect(try Self.readAll(channel).count == 1)
        do {
            try channel.writeInbound(ByteBuffer(bytes: good + bad))
        } catch let error as WireError {
            Issue.record("the decoder read on after its error: \(error)")
        } catch {}
        _ = try? channel.finish()
    }

    @Test("every error code a frame can break comes through typed", arguments: [
        ("decafbad0100000000000001000000000000444c000000000000000100", ErrorCode.checksumMismatch),
        ("decafbad0200000000000001000000000000444c0000000000000000", .versionUnsupported),
        ("decafbad01000000000000010000000000000000ffffffff00000000", .bodyTooLarge),
        ("00000000", .badMagic),
    ])
    func typedErrors(hex: String, expected: ErrorCode) throws {
        let channel = Self.decoderChannel()
        do {
            try channel.writeInbound(ByteBuffer(bytes: Hex.bytes(hex)!))
            try channel.throwIfErrorCaught()
            Issue.record("no error")
        } catch let error as WireError {
            #expect(error.code == expected)
        }
        _ = try? channel.finish()
    }

    @Test("an oversized body_length is refused from the header, before any body arrives")
    func oversized() throws {
        var header = Self.header
        header.bodyLength = 64
        let channel = Self.decoderChannel(options: DecodeOptions(bodyLimit: 63))
        #expect(throws: WireError(.bodyTooLarge(length: 64, limit: 63), offset: 20)) {
            try channel.writeInbound(ByteBuffer(bytes: header.bytes))
        }
        _ = try? channel.finish()
    }

    @Test("a connection that ends inside a frame is TRUNCATED_FRAME")
    func truncatedAtEOF() throws {
        let channel = Self.decoderChannel()
        try channel.writeInbound(ByteBuffer(bytes: Self.frames(1).dropLast()))
        #expect(try Self.readAll(channel).isEmpty)
        #expect(throws: WireError.self) { try channel.finish() }
    }

    /// A receiver that judges a header only once whole (interpretation 1), refusing from the header
    /// or only after the body: frames split anywhere come out whole; a bad magic is refused once
    /// the header is in; a stream that ends within a header is cut short at its start, whatever it got wrong.
    @Test("a receiver that judges headers whole waits for all 28 bytes, and cuts a stream short within one", arguments: [true, false])
    func wholeHeader(refusesFromHeader: Bool) throws {
        func channel() -> EmbeddedChannel {
            EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoderHandler(refusesFromHeader: refusesFromHeader, judgesHeaderWhole: true)))
        }
        let stream = Self.frames(5)
        let split = channel()
        for start in stride(from: 0, to: stream.count, by: 7) { try split.writeInbound(ByteBuffer(bytes: stream[start..<min(start + 7, stream.count)])) }
        #expect(try Self.readAll(split).map(\.header.sequence.counter) == Array(0..<5))
        #expect(try split.finish().isClean)

        let badMagic = channel()
        try badMagic.writeInbound(ByteBuffer(bytes: [0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(throws: WireError(.truncatedFrame(received: 4, expected: nil), offset: 0, frameOffset: 0)) { try badMagic.finish() }

        let afterFrame = channel()
        try afterFrame.writeInbound(ByteBuffer(bytes: Self.frames(1) + [0xDE, 0xAD]))
        #expect(try Self.readAll(afterFrame).count == 1)
        let first = Self.frames(1).count
        #expect(throws: WireError(.truncatedFrame(received: 2, expected: nil), offset: first, frameOffset: first)) { try afterFrame.finish() }

        let wholeBadHeader = channel()
        var header = Self.header.bytes
        header[0] = 0
        #expect(throws: WireError.self) { try wholeBadHeader.writeInbound(ByteBuffer(bytes: header + [0, 0])) }
        _ = try? wholeBadHeader.finish()
    }

    @Test("the timestamp window reads the injected clock")
    func timestampWindow() throws {
        var options = DecodeOptions()
        options.timestampWindow = TimestampWindow(seconds: 60, now: 0)
        let channel = Self.decoderChannel(options: options, now: { 1_700_000_030 })
        try channel.writeInbound(ByteBuffer(bytes: Self.frames(1)))
        #expect(try Self.readAll(channel).count == 1)
        let late = Self.decoderChannel(options: options, now: { 1_700_000_061 })
        #expect(throws: WireError(.timestampOutOfWindow(timestamp: 1_700_000_000, now: 1_700_000_061, window: 60), offset: 12)) {
            try late.writeInbound(ByteBuffer(bytes: Self.frames(1)))
        }
        _ = try? late.finish()
    }

    @Test("the encoder writes what FrameEncoder writes, and the decoder reads it back")
    func encoder() throws {
        let channel = EmbeddedChannel(handler: MessageToByteHandler(FrameEncoderHandler()))
        let fields = [TLVField(tag: .text, text: String(repeating: "zip ", count: 50)), TLVField.container([])]
        var header = Self.header
        header.compressType = .zlib
        try channel.writeOutbound(OutgoingFrame(header: header, fields: fields))
        let written = try #require(try channel.readOutbound(as: ByteBuffer.self))
        var encoder = FrameEncoder()
        #expect(Array(written.readableBytesView) == encoder.encode(header, fields: fields))
        var decoder = FrameDecoder()
        decoder.append(Array(written.readableBytesView))
        #expect(try decoder.nextFrame()?.fields.map(TLVField.init) == fields)
        #expect(try channel.finish().isClean)
    }
}
