/// Text on the command line that means nothing when empty: a pattern, hex input.
enum TextArgument {
    @Sendable static func nonEmpty(_ text: String) throws(ArgumentProblem) -> String {
        guard !text.isEmpty else { throw ArgumentProblem("empty") }
        return text
    }
}
