import DecafConformance
import DecafVectors
import DecafWire

/// A fuzzed input as a network case of `decaf conform server`: a fresh connection, the handshake
/// (and, in some plans, a DATA frame acknowledged), then the input's bytes, possibly cut into
/// several writes, and what a receiver must do with them, judged by `ServerJudge` exactly as the
/// suite judges the golden vectors (`ConformanceCase.sending`). A VERSION_REQUEST the input
/// carries is answered as HS-2 says.
public enum ServerCase {
    /// How the input is sent: the writes it is cut into, and whether a DATA frame goes first.
    public struct Plan: Hashable, Sendable {
        public var split: [Int]
        public var dataFirst: Bool

        public init(split: [Int] = [], dataFirst: Bool = false) {
            self.split = split
            self.dataFirst = dataFirst
        }

        /// A plan drawn from `random`: most inputs in one write after the handshake alone; some
        /// cut into two or three writes; some after a DATA frame of the session.
        public static func random(for bytes: [UInt8], using random: inout some RandomNumberGenerator) -> Plan {
            let dataFirst = Int.random(in: 0..<4, using: &random) == 0
            return Plan(split: WriteSplit.random(for: bytes, using: &random), dataFirst: dataFirst)
        }
    }

    /// The counters of the handshake's CONTROL frame and of the DATA frame a plan sends first: far
    /// from the counters the corpus and the mutator's interesting values give, so no input's
    /// sequence is taken for theirs (an input that has it anyway is not sent).
    static let openingCounter: UInt32 = 0xF0_0001

    /// The case of input number `number`, or nil when the bytes are not one frame's stream, or
    /// carry the sequence of a frame that opened the session (a repeat, whose answer depends on
    /// the target's memory of repeats, and an ACK the judge could not tell from the first one's).
    public static func make(_ bytes: [UInt8], options: DecodeOptions, number: Int, plan: Plan) -> ConformanceCase? {
        if let header = FrameHeader(decoding: bytes),
           [SessionOpening.handshakeSequence(counter: openingCounter), SessionOpening.dataSequence(counter: openingCounter)].contains(header.sequence) {
            return nil
        }
        guard let codecCase = DecoderCase.make(bytes, options: options, number: number),
              var sent = ConformanceCase.sending(codecCase.vector, group: "fuzz") else { return nil }
        if case let .valid(expected) = codecCase.vector.expectation, let request = versionRequest(in: expected.payload),
           expected.header.messageType == .control {
            let header = expected.header
            sent.steps = sent.steps.map { step in
                guard case .expect = step else { return step }
                return .expect(.versionResponse(to: request, sequence: header.sequence, session: header.sessionID))
            }
        }
        let steps = sent.steps.map { step -> ConformanceStep in
            guard case var .send(transmission) = step else { return step }
            transmission.split = plan.split
            transmission.pause = plan.split.isEmpty ? .zero : .milliseconds(2)
            return .send(transmission)
        }
        let opening = SessionOpening.handshake(counter: openingCounter) + (plan.dataFirst ? SessionOpening.acknowledgedData(counter: openingCounter) : [])
        return ConformanceCase("fuzz.input-\(number)", sent.requirements, sent.level, sent.summary, steps: opening + steps)
    }

    /// The VERSION_REQUEST among the top-level fields of `payload`, when it is well formed.
    private static func versionRequest(in payload: [UInt8]) -> VersionRequest? {
        TLVSequence(payload).first { $0.tag == .versionRequest }.flatMap { VersionRequest(value: $0.value) }
    }
}
