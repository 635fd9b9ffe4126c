import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// Runs `decaf`, mapping every usage and input error to exit status 2 (ArgumentParser's default
/// is 64).
@main
enum DecafMain {
    static func main() async {
        do {
            var command = try Decaf.parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
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
