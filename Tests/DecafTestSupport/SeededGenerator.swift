import DecafSession

/// The tests' deterministic generator: property tests explore many inputs and every failure can
/// be replayed from its seed.
public typealias SeededGenerator = SeededRandom

extension SeededRandom {
    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}
