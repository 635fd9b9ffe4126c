/// Decaf's `corrupt_frames`: frames get a byte of their body changed with `probability`, so the
/// receiver sees a checksum mismatch.
public struct CorruptFramesToxic: FrameProbabilityToxic {
    public static let type = "corrupt_frames"
    public var probability: Double

    public init(probability: Double) {
        self.probability = probability
    }

    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard framed, context.chosen(probability) else { return [.bytes(bytes, at: now)] }
        context.frames.corrupted += 1
        var damaged = bytes
        damaged[damaged.count - 1] ^= 0xFF
        return [.bytes(damaged, at: now)]
    }
}

extension Toxic {
    public static func corruptFrames(probability: Double) -> Toxic { Toxic(CorruptFramesToxic(probability: probability)) }
}
