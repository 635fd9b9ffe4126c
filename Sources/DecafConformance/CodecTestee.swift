import DecafDiagnosis
import DecafJSON
import DecafSession
import DecafVectors
import DecafWire

/// Decaf's own codec as a testee of the testee protocol (`Specs/conform-testee.md`): DecafWire
/// answers each request, as `tools/reference/testee.py` does in Python. With faults it misbehaves
/// on purpose, only on the rare inputs each fault names; with mistakes (`CodecModel`) it makes
/// them on every input; with choices (`ReceiverChoice`) it is another legal codec. Pure: the command that runs it reads the
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
    /// The mistakes it makes on every input (the codec suite's targets).
    public let model: CodecModel
    /// The choices the brief leaves a receiver that it makes: a legal codec either way.
    public let choices: Set<ReceiverChoice>

    public init(faults: Set<CodecFault> = [], mistakes: Set<CodecMistake> = [], choices: Set<ReceiverChoice> = []) {
        self.faults = faults
        model = CodecModel(mistakes)
        self.choices = choices
    }

    public func reply(to request: TesteeMessage.Request) -> Reply {
        guard request.op == .decode else { return .answer(model.answer(request)) }
        let bytes = request.hex.flatMap(Hex.bytes) ?? []
        return decode(bytes, options: request.options?.decodeOptions ?? DecodeOptions())
    }

    /// The stream decoded as one receiver decodes it, then ended: its one frame, or its first error.
    private func decode(_ bytes: [UInt8], options given: DecodeOptions) -> Reply {
        if let refusal = ReceiverChoice.refusal(of: bytes, choices: choices) { return .answer(model.response(.error(refusal))) }
        var options = ReceiverChoice.options(given, choices: choices)
        if faults.contains(.acceptsShortZlibBody), let frame = Self.shortZlibFrame(bytes, options: options) {
            return .answer(model.response(.frame(frame)))
        }
        var decoded = model.decode(bytes, options: options)
        if case let .error(error) = decoded, let again = ReceiverChoice.options(after: error, of: bytes, options: options, choices: choices) {
            options = again
            decoded = model.decode(bytes, options: options)
        }
        if case let .frame(frame) = decoded {
            if faults.contains(.crashOnDeepEmptyText), DeepInput.holdsEmptyText(TLVSequence(frame.payload), deeperThan: 3) {
                return .crash("a container nested four deep holds an empty TEXT")
            }
            if faults.contains(.crashOnCompressedInvalidText), frame.header.compressType == .zlib, DeepInput.holdsInvalidText(TLVSequence(frame.payload)) {
                return .crash("a zlib-compressed body holds a TEXT that is not UTF-8")
            }
            if faults.contains(.hangAtInflateLimit), frame.header.compressType == .zlib, frame.payload.count == options.bodyLimit,
               frame.header.messageType != .data {
                return .hang
            }
        }
        return .answer(model.response(decoded))
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
