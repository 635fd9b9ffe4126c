/// Why a toxic was refused, in the user's words.
public struct ToxicProblem: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
