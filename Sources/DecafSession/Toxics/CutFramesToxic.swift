/// Decaf's `cut_frames`: with `probability`, the connection is cut halfway through a frame.
public struct CutFramesToxic: FrameProbabilityToxic {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "cut_frames"
    /// The chance, 0 to 1, that a frame is cut.
    public var probability: Double

    /// Cuts a frame with `probability`.
    public init(probability: Double) {
        self.probability = probability
    }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard framed, context.chosen(probability) else { return [.bytes(bytes, at: now)] }
        context.frames.cut += 1
        return [.bytes(Array(bytes.prefix(bytes.count / 2)), at: now), .close(at: now)]
    }
}

extension Toxic {
    /// Sends a frame's first part only, then closes, with `probability`.
    public static func cutFrames(probability: Double) -> Toxic { Toxic(CutFramesToxic(probability: probability)) }
}
