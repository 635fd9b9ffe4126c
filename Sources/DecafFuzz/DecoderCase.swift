import DecafConformance
import DecafVectors
import DecafWire

/// A fuzzed input as a codec case of `decaf conform decoder`, with what the brief makes of it
/// (`DecodeOutcome`) as its vector's expectation, so `CodecJudge` judges the testee's answer
/// exactly as the conformance suite judges the golden vectors. Where the brief lets a receiver
/// choose (an AES256 body at a receiver that cannot decrypt, FRAME-5; containers nested one past
/// the limit with nothing in the deepest, TLV-2) either answer passes, and a header cut short may be
/// refused as the brief's other reading has it (`isOtherReading`).
public enum DecoderCase {
    /// The case of input number `number`, or nil when the bytes are not one frame's stream (a
    /// frame and more after it: the testee protocol answers for one frame).
    public static func make(_ bytes: [UInt8], options: DecodeOptions, number: Int) -> CodecCase? {
        var decoder = FrameDecoder(options: options)
        decoder.append(bytes)
        let expectation: VectorExpectation
        let requirements: [RequirementID]
        do {
            guard let frame = try decoder.nextFrame() else {
                try decoder.finish()
                return nil
            }
            guard frame.wireLength == bytes.count else { return nil }
            expectation = .valid(expected(frame))
            requirements = []
        } catch {
            let refusal = ExpectedRefusal(error.code, at: error.offset)
            requirements = [error.requirement]
            if let frame = accepted(bytes, refusedWith: error, options: options) {
                expectation = .acceptable(expected(frame), refusal)
            } else {
                expectation = .invalid(refusal)
            }
        }
        let vector = FrameVector(tcId: number, comment: "fuzzed input \(number)", requirements: requirements, bytes: bytes, expectation: expectation)
        return CodecCase(task: .decode, vector: vector, options: options, group: "fuzz")
    }

    /// Whether `response` is a refusal the brief allows beside the case's own, which a vector's
    /// expectation cannot hold: a header cut short may be judged only once whole
    /// (Specs/decaf-wire-v1.md, interpretation 1), so TRUNCATED_FRAME at 0 is the other reading
    /// for a stream shorter than a header.
    public static func isOtherReading(_ response: TesteeMessage.Response, of codecCase: CodecCase) -> Bool {
        codecCase.vector.bytes.count < FrameHeader.size && response.error == ErrorCode.truncatedFrame.name && response.offset == 0
    }

    private static func expected(_ frame: Frame) -> ExpectedFrame {
        ExpectedFrame(header: frame.header, payload: Array(frame.payload), fields: [], warnings: [])
    }

    /// The frame a receiver may take instead of refusing `bytes`, when the brief lets it choose.
    static func accepted(_ bytes: [UInt8], refusedWith error: WireError, options: DecodeOptions) -> Frame? {
        var lenient = options
        switch error.code {
        case .unsupportedEncryption where bytes.count > FrameHeader.Field.encryptType.offset
            && bytes[FrameHeader.Field.encryptType.offset] == EncryptType.aes256.rawValue:
            lenient.acceptsEncryptedBodies = true
        case .tlvTooDeep where emptyContainer(at: error.offset, in: bytes, options: options):
            lenient.tlv.depthLimit += 1
        default:
            return nil
        }
        var decoder = FrameDecoder(options: lenient)
        decoder.append(bytes)
        guard let frame = try? decoder.nextFrame(), frame.wireLength == bytes.count, (try? decoder.finish()) != nil else { return nil }
        return frame
    }

    /// Whether the field at body offset `offset` (of the inflated body) is an empty container.
    private static func emptyContainer(at offset: Int, in bytes: [UInt8], options: DecodeOptions) -> Bool {
        var lenient = options
        lenient.tlv.depthLimit = TLVOptions.maximumDepthLimit
        var decoder = FrameDecoder(options: lenient)
        decoder.append(bytes)
        guard let frame = try? decoder.nextFrame() else { return false }
        let payload = Array(frame.payload)
        guard offset >= 0, offset + TLVEncoder.fieldHeaderSize <= payload.count else { return false }
        return payload[offset..<(offset + TLVEncoder.fieldHeaderSize)].elementsEqual([0xFF, 0xFF, 0, 0, 0, 0])
    }
}
