import Foundation

/// What `--experimental-dump-help` says of the commands, as far as the walk needs it.
struct ToolInfo: Decodable {
    var command: CommandInfo

    struct CommandInfo: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var subcommands: [CommandInfo]?
        var arguments: [ArgumentInfo]?

        /// This command and every one under it.
        var all: [CommandInfo] { [self] + (subcommands ?? []).flatMap(\.all) }

        /// The commands that run (no subcommands), with the words that name them.
        func leaves(_ path: [String] = []) -> [([String], CommandInfo)] {
            guard let subcommands, !subcommands.isEmpty else { return [(path, self)] }
            return subcommands.flatMap { $0.leaves(path + [$0.commandName]) }
        }
    }

    struct ArgumentInfo: Decodable {
        var kind: String
        var names: [NameInfo]?
        var valueName: String?
        var isOptional: Bool
        var parsingStrategy: String?
    }

    struct NameInfo: Decodable {
        var kind: String
        var name: String
    }
}
