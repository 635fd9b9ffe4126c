/// What a pipe shares among its toxics while they act: its seeded generator, so a run replays
/// from its seed, and the counts of what the toxics on frames did.
public struct ToxicContext: Sendable {
    /// The generator every toxic of the pipe draws from.
    public var random: SeededRandom
    /// What the toxics on frames did, counted.
    public var frames = ToxicPipe.FrameCounts()

    /// A context drawing from `seed`.
    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// Whether something is chosen, with `probability`.
    public mutating func chosen(_ probability: Double) -> Bool {
        probability >= 1 || (probability > 0 && Double.random(in: 0..<1, using: &random) < probability)
    }
}
