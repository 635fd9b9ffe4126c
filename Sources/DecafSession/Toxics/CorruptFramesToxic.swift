/// Decaf's `corrupt_frames`: frames get a byte of their body changed with `probability`, so the
/// receiver sees a checksum mismatch.
public struct CorruptFramesToxic: FrameProbabilityToxic {
    /// Its type name in toxiproxy's API and on the command line.
    public static let type = "corrupt_frames"
    /// The chance, 0 to 1, that a frame is corrupted.
    public var probability: Double

    /// Corrupts a frame with `probability`.
    public init(probability: Double) {
        self.probability = probability
    }

    /// What becomes of a chunk (or a whole frame) it acts on.
    public func pass(_ bytes: [UInt8], at now: Duration, framed: Bool, in stage: inout ToxicStage, with context: inout ToxicContext) -> [ToxicPipe.Passage] {
        guard framed, context.chosen(probability) else { return [.bytes(bytes, at: now)] }
        context.frames.corrupted += 1
        var damaged = bytes
        damaged[damaged.count - 1] ^= 0xFF
        return [.bytes(damaged, at: now)]
    }
}

extension Toxic {
    /// Flips a bit in a frame's body with `probability`, its checksum left as it was.
    public static func corruptFrames(probability: Double) -> Toxic { Toxic(CorruptFramesToxic(probability: probability)) }
}
