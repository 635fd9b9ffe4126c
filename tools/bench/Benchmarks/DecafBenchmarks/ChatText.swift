/// Deterministic chat-like text: compressible the way real messages are, not trivially.
enum ChatText {
    static let words = ["hey", "are", "you", "coming", "to", "the", "cafe", "tonight", "?", "yes", "at", "eight",
                        "see", "you", "there", "👍", "decaf", "please", "lol", "ok", "\n", "sure", "running", "late"]

    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var out: [UInt8] = []
        out.reserveCapacity(count + 16)
        while out.count < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            out += Array(words[Int(state % UInt64(words.count))].utf8) + [0x20]
        }
        return Array(out.prefix(count))
    }
}
