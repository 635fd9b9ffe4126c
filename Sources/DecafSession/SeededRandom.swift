/// A deterministic random number generator (SplitMix64): given the same seed, the same jitter,
/// delays and losses, so a run, a failing test or a fuzzer's crash can be replayed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that gives the same numbers for the same `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next number.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
