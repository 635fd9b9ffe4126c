import DecafWire

extension FrameVector {
    /// A vector of `bytes` whose expectation is what the brief makes of them for a receiver with
    /// `options`, from DecafWire's `LegalOutcomes`: valid when every legal receiver takes the
    /// frame, invalid (with the strict reading's refusal, whose requirement is added to
    /// `requirements`) when none does, acceptable when the brief lets a receiver go either way.
    /// Nil when the bytes hold nothing, or when a legal reading takes a frame that is not all of
    /// them (a vector is one frame's stream).
    public init?(tcId: Int, comment: String, requirements: [RequirementID] = [], bytes: [UInt8], judgedUnder options: DecodeOptions) {
        let legal = LegalOutcomes(of: bytes, options: options)
        guard let strict = legal.strict, legal.frames.allSatisfy({ $0.wireLength == bytes.count }) else { return nil }
        let expectation: VectorExpectation
        var requirements = requirements
        switch strict {
        case let .frame(frame):
            // No choice the brief leaves a receiver turns a frame the strict reading takes into a refusal.
            expectation = .valid(ExpectedFrame(taken: frame))
        case let .refused(error):
            let refusal = ExpectedRefusal(error.code, at: error.offset)
            if !requirements.contains(error.requirement) { requirements.append(error.requirement) }
            expectation = legal.frames.first.map { .acceptable(ExpectedFrame(taken: $0), refusal) } ?? .invalid(refusal)
        }
        self.init(tcId: tcId, comment: comment, requirements: requirements, bytes: bytes, expectation: expectation)
    }
}
