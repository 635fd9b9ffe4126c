/// Decaf's `duplicate_frames`: whole frames are sent twice with `probability`.
public struct DuplicateFramesToxic: FrameProbabilityToxic {
    public static let type = "duplicate_frames"
    public var probability: Double

    public init(probability: Double) {
        self.probability = probability
    }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard framed, context.chosen(probability) else { return [.bytes(bytes, at: now)] }
        context.frames.duplicated += 1
        return [.bytes(bytes, at: now), .bytes(bytes, at: now)]
    }
}

extension Toxic {
    public static func duplicateFrames(probability: Double) -> Toxic { Toxic(DuplicateFramesToxic(probability: probability)) }
}
