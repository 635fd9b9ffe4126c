#if canImport(Glibc)
import Glibc
#endif

/// Input a command cannot work with (a missing file, text that is not hex), or output it cannot
/// write: reported in one line with exit status 2, like a usage error.
struct InputError: Error {
    let message: String

    init(_ message: String) { self.message = message }

    /// Standard output refused what was written, for the reason `code` names.
    static func cannotWrite(_ code: Int32) -> InputError {
        let hint = code == ENOSPC || code == EDQUOT ? "free some space or write it elsewhere" : "write it elsewhere"
        return InputError("cannot write the output: \(String(cString: strerror(code))); \(hint)")
    }
}
