import DecafDissect
import DecafJSON
#if canImport(Glibc)
import Glibc
#endif

/// A file of JSON lines written as things happen, from any thread: each line goes out in one
/// append, so lines never interleave.
struct JSONLinesFile: Sendable {
    private let output: FileHandleOutput

    /// Creates or empties the file at `path`; refuses, with the reason, a file that cannot be written.
    init(path: String, option: String) throws(InputError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError("\(option): cannot write '\(path)': \(String(cString: strerror(errno)).lowercased())") }
        output = FileHandleOutput(descriptor: descriptor)
    }

    func write(_ line: some Encodable) {
        output.write(JSONLine.encode(line) + "\n")
    }
}
