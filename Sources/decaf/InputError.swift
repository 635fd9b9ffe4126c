/// Input a command cannot work with (a missing file, text that is not hex): reported in one line
/// with exit status 2, like a usage error.
struct InputError: Error {
    let message: String

    init(_ message: String) { self.message = message }
}
