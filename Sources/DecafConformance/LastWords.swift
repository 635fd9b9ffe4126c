/// What a testee or server said last on its standard error: its last line that tells of a fatal
/// error (a Swift runtime's backtrace ends with lines about itself, its registers and its time),
/// or else its last line that is not blank; at most 200 characters.
public enum LastWords {
    private static let fatal = ["Fatal error", "fatal", "panic", "Segmentation fault", "Aborted", "Assertion", "Traceback", "uncaught exception",
                                "Uncaught", "Terminating app"]

    /// Whether `line` tells of a fatal error: a crash, an uncaught exception, a panic.
    public static func isFatal(_ line: String) -> Bool {
        fatal.contains { line.contains($0) }
    }

    public static func of(_ text: String) -> String {
        let lines = text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
        let said = lines.last { line in fatal.contains { line.contains($0) } } ?? lines.last ?? ""
        return String(said.prefix(200))
    }
}
