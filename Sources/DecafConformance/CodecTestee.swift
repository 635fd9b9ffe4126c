import DecafSession
import DecafJSON
import DecafVectors
import DecafWire

/// Decaf's own codec as a testee of the testee protocol (`Specs/conform-testee.md`): DecafWire
/// answers each request, as `tools/reference/testee.py` does in Python. With faults it misbehaves
/// on purpose, only on the rare inputs each fault names. Pure: the command that runs it reads the
/// requests, writes the answers, and crashes or hangs when told to.
public struct CodecTestee: Sendable {
    /// What the testee does with a request.
    public enum Reply: Hashable, Sendable {
        case answer(TesteeMessage.Response)
        /// Dies (the fault says why).
        case crash(String)
        /// Never answers.
        case hang
    }

    public let faults: Set<CodecFault>

    public init(faults: Set<CodecFault> = []) {
        self.faults = faults
    }

    public func reply(to request: TesteeMessage.Request) -> Reply {
        switch request.op {
        case .decode:
            let bytes = request.hex.flatMap(Hex.bytes) ?? []
            return decode(bytes, options: request.options?.decodeOptions ?? DecodeOptions())
        case .encode:
            guard let header = request.header?.frameHeader, let payload = request.payload.flatMap(Hex.bytes) else {
                return .answer(TesteeMessage.Response(result: "skipped", reason: "an encode request needs a header and a payload"))
            }
            var encoder = FrameEncoder()
            return .answer(TesteeMessage.Response(result: "bytes", hex: Hex.string(encoder.encode(header, payload: payload))))
        }
    }

    /// The stream decoded as one receiver decodes it, then ended: its one frame, or its first error.
    private func decode(_ bytes: [UInt8], options: DecodeOptions) -> Reply {
        if faults.contains(.acceptsShortZlibBody), let frame = Self.shortZlibFrame(bytes, options: options) {
            return .answer(Self.frameResponse(frame))
        }
        var decoder = FrameDecoder(options: options)
        decoder.append(bytes)
        do {
            guard let frame = try decoder.nextFrame() else {
                try decoder.finish()
                return .answer(TesteeMessage.Response(result: "error", error: ErrorCode.truncatedFrame.name, offset: 0))
            }
            if faults.contains(.crashOnDeepEmptyText), DeepInput.holdsEmptyText(TLVSequence(frame.payload), deeperThan: 3) {
                return .crash("a container nested four deep holds an empty TEXT")
            }
            if faults.contains(.hangAtInflateLimit), frame.header.compressType == .zlib, frame.payload.count == options.bodyLimit,
               frame.header.messageType != .data {
                return .hang
            }
            try decoder.finish()
            return .answer(Self.frameResponse(frame))
        } catch {
            return .answer(TesteeMessage.Response(result: "error", error: error.code.name, offset: error.offset))
        }
    }

    private static func frameResponse(_ frame: Frame) -> TesteeMessage.Response {
        TesteeMessage.Response(result: "frame", header: FrameHeaderJSON(frame.header), payload: Hex.string(frame.payload))
    }

    /// The fault's misreading: a zlib frame one byte short of its body_length, taken as if the
    /// bytes that did arrive were its whole body (their checksum and stream must hold).
    private static func shortZlibFrame(_ bytes: [UInt8], options: DecodeOptions) -> Frame? {
        guard var header = FrameHeader(decoding: bytes), header.compressType == .zlib,
              Int(header.bodyLength) == bytes.count - FrameHeader.size + 1, header.bodyLength <= options.bodyLimit else { return nil }
        header.bodyLength -= 1
        var fixed = bytes
        FrameHeader.Field.bodyLength.set(header.bodyLength, in: &fixed)
        var decoder = FrameDecoder(options: options)
        decoder.append(fixed)
        guard let frame = try? decoder.nextFrame() else { return nil }
        var claimed = frame
        claimed.header.bodyLength += 1
        return claimed
    }
}
