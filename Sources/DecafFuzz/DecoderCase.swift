import DecafConformance
import DecafVectors
import DecafWire

/// A fuzzed input as a codec case of `decaf conform decoder`, with what the brief makes of it as
/// its vector's expectation, so `CodecJudge` judges the testee's answer exactly as the conformance
/// suite judges the golden vectors. What a receiver may answer is DecafWire's `LegalOutcomes`:
/// the strict reading, and every choice the brief leaves a receiver followed to its end (an
/// AES256 body taken as opaque, then checked on; an empty container one past the depth limit; a
/// header judged only once whole). An answer is a finding only outside that set (`isLegal`).
public enum DecoderCase {
    /// The case of input number `number`, or nil when the bytes are not one frame's stream under
    /// every legal reading (a frame and more after it: the testee protocol answers for one frame).
    public static func make(_ bytes: [UInt8], options: DecodeOptions, number: Int) -> CodecCase? {
        FrameVector(tcId: number, comment: "fuzzed input \(number)", bytes: bytes, judgedUnder: options)
            .map { CodecCase(task: .decode, vector: $0, options: options, group: "fuzz") }
    }

    /// Whether `response` is an answer some legal receiver gives the case's bytes: judged as the
    /// case judges its own expectation, against each outcome of `LegalOutcomes`.
    public static func isLegal(_ response: TesteeMessage.Response, of codecCase: CodecCase) -> Bool {
        LegalOutcomes(of: codecCase.vector.bytes, options: codecCase.options).outcomes.contains { outcome in
            var alternative = codecCase
            switch outcome {
            case let .frame(frame): alternative.vector.expectation = .valid(ExpectedFrame(taken: frame))
            case let .refused(error): alternative.vector.expectation = .invalid(ExpectedRefusal(error.code, at: error.offset))
            }
            return alternative.judge(response).kind.isPass
        }
    }
}
