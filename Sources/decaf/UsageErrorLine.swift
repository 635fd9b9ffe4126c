import ArgumentParser

/// A usage error as one line: ArgumentParser's message with its lists flattened, a long value shown
/// by its start and length, and where to read more, `(see decaf peer --help)`.
struct UsageErrorLine {
    let message: String
    let arguments: [String]

    /// Values longer than this are abbreviated in the message.
    static let longestValueShown = 60

    var text: String {
        let parts = message.split(separator: "\n")
        let bullets = parts.filter { $0.hasPrefix("  - ") }.map { $0.dropFirst(4) }
        var line = parts.filter { !$0.hasPrefix("  - ") }.joined(separator: " ") + (bullets.isEmpty ? "" : " " + bullets.joined(separator: ", "))
        for argument in Set(arguments) where argument.count > Self.longestValueShown {
            line = line.replacing(argument, with: "\(argument.prefix(24))… (\(argument.count) characters)")
        }
        return "Error: \(line) (see '\(commandPath.joined(separator: " ")) --help')"
    }

    /// `decaf conform server`: the command the arguments name, as far as they name one.
    var commandPath: [String] {
        var path = [Decaf.configuration.commandName ?? "decaf"]
        var command: ParsableCommand.Type = Decaf.self
        for argument in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == argument }) else { break }
            path.append(argument)
            command = next
        }
        return path
    }
}
