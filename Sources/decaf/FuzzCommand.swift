import ArgumentParser

/// `decaf fuzz`: finds the inputs that crash, hang or fool someone else's implementation.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Find the inputs that crash, hang or fool an implementation, each minimized to a reproducer.",
        subcommands: [FuzzServerCommand.self, FuzzClientCommand.self, FuzzDecoderCommand.self, FuzzReplayCommand.self]
    )
}
