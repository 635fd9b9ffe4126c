/// Decaf's `duplicate_frames`: whole frames are sent twice with `probability`.
public struct DuplicateFramesToxic: FrameProbabilityToxic {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "duplicate_frames"
    /// The chance, 0 to 1, that a frame is sent twice.
    public var probability: Double

    /// Sends a frame twice with `probability`.
    public init(probability: Double) {
        self.probability = probability
    }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard framed, context.chosen(probability) else { return [.bytes(bytes, at: now)] }
        context.frames.duplicated += 1
        return [.bytes(bytes, at: now), .bytes(bytes, at: now)]
    }
}

extension Toxic {
    /// Sends a frame twice with `probability`.
    public static func duplicateFrames(probability: Double) -> Toxic { Toxic(DuplicateFramesToxic(probability: probability)) }
}
