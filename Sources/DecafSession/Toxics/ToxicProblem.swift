/// Why a toxic was refused, in the user's words.
public struct ToxicProblem: Error, CustomStringConvertible {
    /// What is wrong, in the user's words, with what to write instead.
    public let description: String

    /// A problem said as `description`.
    public init(_ description: String) {
        self.description = description
    }
}
