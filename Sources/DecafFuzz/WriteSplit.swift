/// How an input is cut into TCP writes: splitting across segments is a mutation too (FRAME-3).
enum WriteSplit {
    /// The sizes of the writes before the last, drawn from `random`: most inputs go in one write
    /// (none), a quarter in two or three.
    static func random(for bytes: [UInt8], using random: inout some RandomNumberGenerator) -> [Int] {
        guard bytes.count > 1, Int.random(in: 0..<4, using: &random) == 0 else { return [] }
        var split: [Int] = []
        var left = bytes.count
        for _ in 0..<Int.random(in: 1...2, using: &random) where left > 1 {
            let size = Int.random(in: 1..<left, using: &random)
            split.append(size)
            left -= size
        }
        return split
    }
}
