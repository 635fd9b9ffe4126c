import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// Runs `decaf`, mapping every usage and input error to exit status 2 (ArgumentParser's default
/// is 64).
@main
enum DecafMain {
    static func main() {
        do {
            var command = try Decaf.parseAsRoot()
            try command.run()
        } catch let error as InputError {
            FileHandleOutput.standardError.write("Error: \(error.message)\n")
            exit(2)
        } catch {
            if Decaf.exitCode(for: error) == .validationFailure {
                FileHandleOutput.standardError.write(Decaf.fullMessage(for: error) + "\n")
                exit(2)
            }
            Decaf.exit(withError: error)
        }
    }
}
