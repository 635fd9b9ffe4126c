import ArgumentParser
import DecafVectors
import Foundation

/// `decaf fixtures`: regenerate or check the golden fixtures.
struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Regenerate or verify the golden fixture vectors.",
        subcommands: [Generate.self, Verify.self]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "generate", abstract: "Write every golden vector and frame file under DIR.")

        @Argument(help: ArgumentHelp("The fixtures directory (the repository's Fixtures/).", valueName: "directory"), transform: PathArgument.parse)
        var directory: String

        func run() throws {
            let count = try FixtureSet.write(to: URL(filePath: directory))
            print("wrote \(count) files under \(directory)")
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check that DIR holds exactly what `fixtures generate` would write; exit 1 if not."
        )

        @Argument(help: ArgumentHelp("The fixtures directory (the repository's Fixtures/).", valueName: "directory"), transform: PathArgument.parse)
        var directory: String

        func run() throws {
            let differences = try FixtureSet.verify(in: URL(filePath: directory))
            guard differences.isEmpty else {
                differences.forEach { print($0) }
                print("\(differences.count) fixture file(s) differ; run `decaf fixtures generate \(directory)` and review the change")
                throw ExitCode.failure
            }
            print("fixtures in \(directory) are up to date")
        }
    }
}
