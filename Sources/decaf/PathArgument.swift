/// A file or directory name on the command line: not empty, and no longer than Linux lets a path
/// be, so a bad name is refused before anything is opened or written.
enum PathArgument {
    /// Linux's PATH_MAX, in bytes.
    static let longest = 4096

    @Sendable static func parse(_ text: String) throws(ArgumentProblem) -> String {
        guard !text.isEmpty else { throw ArgumentProblem("empty; give a file name") }
        guard text.utf8.count < longest else { throw ArgumentProblem("longer than a path can be (\(longest) bytes)") }
        return text
    }
}
