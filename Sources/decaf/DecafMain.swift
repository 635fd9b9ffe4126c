import ArgumentParser
import DecafDissect
#if canImport(Glibc)
import Glibc
#endif

/// Runs `decaf`. A usage or input error is one line on standard error, naming the option and
/// saying what to give, and exit status 2 (ArgumentParser's default is 64 and a usage block).
@main
enum DecafMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try Decaf.parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as InputError {
            FileHandleOutput.standardError.write("Error: \(error.message)\n")
            exit(2)
        } catch {
            guard Decaf.exitCode(for: error) == .validationFailure else { Decaf.exit(withError: error) }
            FileHandleOutput.standardError.write(UsageErrorLine(message: Decaf.message(for: error), arguments: arguments).text + "\n")
            exit(2)
        }
    }
}
