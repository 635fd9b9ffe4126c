import Foundation

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

    /// A file a report is written to once the run ends: its directory must exist and be writable
    /// now, so a long run is never lost to a name that could not be written.
    @Sendable static func output(_ text: String) throws(ArgumentProblem) -> String {
        let path = try parse(text)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ArgumentProblem("a directory; give a file name")
        }
        let directory = URL(filePath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw ArgumentProblem("the directory \(directory) does not exist; create it first")
        }
        guard isDirectory.boolValue else { throw ArgumentProblem("\(directory) is not a directory") }
        guard FileManager.default.isWritableFile(atPath: directory) else { throw ArgumentProblem("cannot write in \(directory)") }
        return path
    }
}
