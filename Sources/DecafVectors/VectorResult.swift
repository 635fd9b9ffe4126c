/// A vector's verdict, as in Wycheproof: `acceptable` where the brief lets a receiver go either way
/// (the stated error is what a receiver that rejects must report).
public enum VectorResult: String, Codable, Sendable, Hashable {
    case valid
    case invalid
    case acceptable
}
