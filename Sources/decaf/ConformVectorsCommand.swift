import ArgumentParser
import DecafVectors
import Foundation

/// `decaf conform vectors DIR`: the codec cases as Wycheproof-style JSON, for teams that load
/// vector files in their own tests.
struct ConformVectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Write the codec cases as Wycheproof-style JSON vector files into a directory.",
        discussion: "The format is in Specs/decaf-wire-v1.md, \"Golden vectors\"; the files are those of Fixtures/vectors."
    )

    @Argument(help: ArgumentHelp("The directory to write into (created if missing).", valueName: "directory"), transform: PathArgument.parse)
    var directory: String

    func run() throws {
        let url = URL(fileURLWithPath: directory)
        let files = try FixtureSet.files().filter { $0.key.hasPrefix("vectors/") }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let name = String(path.dropFirst("vectors/".count))
            try Data(bytes).write(to: url.appending(path: name))
            print(name)
        }
        print("\(files.count) vector files written to \(directory)")
    }
}
