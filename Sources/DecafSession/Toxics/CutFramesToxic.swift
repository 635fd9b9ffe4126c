/// Decaf's `cut_frames`: with `probability`, the connection is cut halfway through a frame.
public struct CutFramesToxic: FrameProbabilityToxic {
    public static let type = "cut_frames"
    public var probability: Double

    public init(probability: Double) {
        self.probability = probability
    }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard framed, context.chosen(probability) else { return [.bytes(bytes, at: now)] }
        context.frames.cut += 1
        return [.bytes(Array(bytes.prefix(bytes.count / 2)), at: now), .close(at: now)]
    }
}

extension Toxic {
    public static func cutFrames(probability: Double) -> Toxic { Toxic(CutFramesToxic(probability: probability)) }
}
