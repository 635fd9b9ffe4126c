/// What a toxic keeps in one direction of one connection, and what the pipe lends it while it
/// acts: the seeded generator and the counts of what the toxics on frames did.
public struct ToxicStage: Sendable {
    /// The latest time the toxic let something out: later ones never overtake it.
    public var last: Duration = .zero
    /// Bytes let through so far (limit_data).
    public var passed = 0
    /// Nothing more gets through (limit_data reached, reset_peer started).
    public var shut = false
    /// The pipe's, while the toxic acts.
    public var random = SeededRandom(seed: 0)
    public var frames = ToxicPipe.FrameCounts()

    /// Whether something is chosen, with `probability`.
    public mutating func chosen(_ probability: Double) -> Bool {
        probability >= 1 || (probability > 0 && Double.random(in: 0..<1, using: &random) < probability)
    }

    /// `bytes` let out at `time` or, to keep their place behind what went before, later.
    public mutating func keepingOrder(_ bytes: [UInt8], at time: Duration) -> [ToxicPipe.Passage] {
        last = max(time, last)
        return [.bytes(bytes, at: last)]
    }
}
