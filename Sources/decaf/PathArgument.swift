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

    /// A file a report is written to once the run ends, in directories made then if missing (as
    /// `--findings` makes its own): refused now when it never could be written (the path names a
    /// directory, a file stands where a directory must, or the nearest directory that exists cannot
    /// be written), so a long run is never lost to a name that could not work.
    @Sendable static func output(_ text: String) throws(ArgumentProblem) -> String {
        let path = try parse(text)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ArgumentProblem("a directory; give a file name")
        }
        var directory = URL(filePath: path).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        guard isDirectory.boolValue else { throw ArgumentProblem("\(directory.path) is not a directory") }
        guard FileManager.default.isWritableFile(atPath: directory.path) else { throw ArgumentProblem("cannot write in \(directory.path)") }
        return path
    }

    /// Makes the directories `path` (a file) goes in, if missing.
    static func makeDirectories(for path: String) throws {
        try FileManager.default.createDirectory(at: URL(filePath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    }
}
